import Foundation
import PostStoreTestSupport

/// Runs a scenario in a child process of its own — this test runner, started again with a filter that selects
/// ``ChildScenarioEntry`` and the scenario named in its environment — so that a scenario that stops its process (a
/// library's failed precondition) fails the test that started it instead of ending the whole test run.
///
/// For example:
///
/// ```swift
/// let outcome = try await ChildScenario.run("postStore:writeAfterServerClosed")
/// #expect(outcome.termination == .exited(0), "\(outcome.summary)")
/// ```
enum ChildScenario {
    /// The variable that names the scenario the child runs.
    static let variable = "POSTSTORE_CHILD_SCENARIO"

    /// The scenario this process runs, when it is such a child.
    static let current: String? = ProcessInfo.processInfo.environment[variable]

    /// The test runner to start again: on Linux, the `….xctest` executable that is running; `nil` elsewhere (on
    /// macOS the tests are a bundle that a runner of Xcode's loads).
    static let runner: String? = {
        #if os(Linux)
        let path = CommandLine.arguments[0]
        return path.hasSuffix(".xctest") && FileManager.default.isExecutableFile(atPath: path) ? path : nil
        #else
        return nil
        #endif
    }()

    /// Runs the scenario in a child and waits for it.
    ///
    /// - Parameters:
    ///   - name: The scenario, as ``ChildScenarioEntry`` reads it.
    ///   - timeout: How long the child may run before it is killed: a hang's ceiling, far above the seconds a
    ///     scenario takes.
    /// - Returns: How the child ended and what it wrote.
    static func run(_ name: String, timeout: Duration = .seconds(180)) async throws -> ChildProcess.Outcome {
        guard let runner else { throw Unavailable() }
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = name
        // A crash is the expected outcome of some scenarios: no symbolicated backtrace (seconds of work) for it.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let arguments = ["--testing-library", "swift-testing", "--filter", "ChildScenarioEntry"]
        return try await onOwnThread { [environment] in
            try ChildProcess.run(runner, arguments, environment: environment, timeout: timeout)
        }
    }

    /// The child cannot be started: no test runner executable to start again.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "no test runner executable to start again (Linux only)" }
    }
}

extension ChildProcess.Outcome {
    /// How the child ended, and the lines that say why: a fatal error's, the issues its test recorded, and the
    /// scenario's last few lines of its own (`scenario: …`).
    var summary: String {
        let errors = String(decoding: standardError, as: UTF8.self).split(separator: "\n")
        let output = String(decoding: standardOutput, as: UTF8.self).split(separator: "\n")
        let fatal = errors.filter { $0.contains("Fatal error") }
        let issues = output.filter { $0.contains("scenario: ") }
        let said = errors.filter { $0.hasPrefix("scenario: ") }.suffix(3)
        return ([timedOut ? "timed out, \(termination)" : "\(termination)"] + (fatal + issues + said).map(String.init))
            .joined(separator: "\n")
    }
}
