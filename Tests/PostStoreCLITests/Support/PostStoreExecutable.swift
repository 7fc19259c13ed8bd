import Foundation
import PostStoreTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `poststore` binary, run as a subprocess the way a shell runs it.
///
/// SwiftPM builds the executable before this test target (the target depends on `PostStoreCLI`) and puts it in the
/// products folder next to the test runner. For example:
///
/// ```swift
/// let result = try await PostStoreExecutable.run(["--version"], environment: [:], in: "/tmp")
/// #expect(result.status == 0)
/// ```
enum PostStoreExecutable {
    /// The binary could not be found, started or stopped.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The binary's location: `$POSTSTORE_BINARY` if set, else `poststore` in the products folder that holds the
    /// test runner, else in the package's `.build/debug`.
    static func url() throws -> URL {
        try location.get()
    }

    /// Runs the binary and waits for it to exit.
    ///
    /// ``ChildProcess`` starts it (`posix_spawn`) and reads standard output and standard error to their end while it
    /// runs, so a process that fills one pipe while the other is being read cannot deadlock.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: The whole environment the process sees; nothing is inherited.
    ///   - directory: The working directory.
    ///   - standardInput: Bytes written to the process's standard input, which is then closed; `nil` connects it to
    ///     `/dev/null`, so a command that reads it never waits on the test runner's own input.
    ///   - timeout: How long the process may run before it is killed (the result then says so). A minute unless
    ///     told: a hung process's ceiling, not a wait that passes (in a plain run on two cores poststore ends within
    ///     seconds; a sanitizer's slowdown is not measured).
    ///   - interrupt: A signal to send after a delay, unless the process has ended by then. The delay counts from
    ///     the moment poststore has installed its handler for the signal (on Linux; elsewhere from the start), so
    ///     a slow start on a loaded machine cannot make the signal come before the handler.
    ///   - fileSizeLimit: The most KiB the process may write to any one file (`ulimit -f`, with SIGXFSZ ignored):
    ///     a write past it fails with `EFBIG`, as on a full disk.
    ///   - control: Holds `standardInput` back until the test releases it, and signals the process when the test
    ///     chooses.
    /// - Returns: How the process ended and what it wrote.
    /// - Throws: ``Failure`` when the binary cannot be found or started.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        in directory: String,
        standardInput: Data? = nil,
        timeout: Duration = .seconds(60),
        interrupt: (after: Duration, signal: Int32)? = nil,
        fileSizeLimit: Int? = nil,
        control: ChildControl? = nil
    ) async throws -> CommandResult {
        var executable = try url()
        var arguments = arguments
        if let fileSizeLimit {
            arguments =
                ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", executable.path] + arguments
            executable = URL(fileURLWithPath: "/bin/bash")
        }
        let (launched, launchArguments) = (executable, arguments)
        // Blocking waits belong on threads of their own, never on the concurrency pool's few threads.
        return try await onOwnThread {
            try runBlocking(
                launched,
                launchArguments,
                environment: environment,
                directory: directory,
                standardInput: standardInput,
                timeout: timeout,
                interrupt: interrupt,
                control: control
            )
        }
    }

    // MARK: - Internals

    private static let location: Result<URL, Failure> = {
        // Writing to a child that exited without reading its input must fail with EPIPE, not kill the test runner
        // (ChildProcess also blocks SIGPIPE on its writing thread; children start with the default action).
        signal(SIGPIPE, SIG_IGN)

        let environment = ProcessInfo.processInfo.environment
        if let override = environment["POSTSTORE_BINARY"], !override.isEmpty {
            return .success(URL(fileURLWithPath: override))
        }
        var folders: [URL] = []
        // Linux: the runner is the executable `….xctest` in the products folder, which is the main bundle's folder.
        folders.append(Bundle.main.bundleURL)
        if let runner = Bundle.main.executableURL { folders.append(runner.deletingLastPathComponent()) }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        // macOS: the tests are a `….xctest` bundle inside the products folder, loaded by Xcode's runner.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        // Last resort: the default build folder of the package this file is in (Tests/PostStoreCLITests/Support).
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))

        let candidates = folders.map { $0.appendingPathComponent("poststore").standardizedFileURL }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        return .failure(
            Failure(
                description: "No poststore binary in \(candidates.map(\.path)); build it (swift build) or set "
                    + "POSTSTORE_BINARY."
            )
        )
    }()

    private static func runBlocking(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String],
        directory: String,
        standardInput: Data?,
        timeout: Duration,
        interrupt: (after: Duration, signal: Int32)?,
        control: ChildControl?
    ) throws -> CommandResult {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                executable.path,
                arguments,
                environment: environment,
                in: directory,
                standardInput: standardInput,
                timeout: timeout,
                delayedSignal: interrupt.map {
                    // poststore installs its SIGINT and SIGTERM handlers first thing; the delay is mid-command.
                    ChildProcess.DelayedSignal($0.signal, after: $0.after, countingFromHandler: true)
                },
                control: control
            )
        } catch {
            throw Failure(description: "\(error)")
        }
        let (status, killedBySignal) =
            switch outcome.termination {
            case .exited(let code): (code, false)
            case .signaled(let signal): (signal, true)
            }
        return CommandResult(
            arguments: arguments,
            status: status,
            killedBySignal: killedBySignal,
            timedOut: outcome.timedOut,
            standardOutput: outcome.standardOutput,
            standardError: outcome.standardError
        )
    }
}
