import Foundation
import PostStoreTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks the test helper that starts every child process (`poststore`, `sqlite3`): what it reads, writes and reports.
@Suite struct ChildProcessTests {
    /// Runs `script` with `/bin/sh -c` off the concurrency pool.
    private func shell(
        _ script: String,
        environment: [String: String] = ["PATH": "/usr/bin:/bin"],
        in directory: String? = nil,
        input: Data? = nil,
        timeout: Duration = .seconds(60),  // a hung script's ceiling: these end at once or when a test ends them
        delayedSignal: ChildProcess.DelayedSignal? = nil,
        control: ChildControl? = nil
    ) async throws -> ChildProcess.Outcome {
        try await onOwnThread {
            try ChildProcess.run(
                "/bin/sh",
                ["-c", script],
                environment: environment,
                in: directory,
                standardInput: input,
                timeout: timeout,
                delayedSignal: delayedSignal,
                control: control
            )
        }
    }

    @Test func givesALineOfStandardErrorWhileTheChildRuns() async throws {
        let control = ChildControl()
        // The line the test waits for comes after others and in two writes; the child waits for the test to end it.
        // Its wait and the ceiling are ten minutes: the test reads the line on the concurrency pool, which a suite
        // under a sanitizer kept busy for two minutes (a 30-second child had exited before the test could signal it).
        async let outcome = shell(
            "echo one >&2; printf 'serving at ' >&2; sleep 0.2; echo port 42 >&2; exec sleep 600",
            timeout: .seconds(600),
            control: control
        )
        let line = try await control.firstErrorLine { $0.hasPrefix("serving") }
        #expect(control.send(SIGTERM), "the child is attached before its output is read")
        #expect(line == "serving at port 42")
        #expect(try await outcome.termination == .signaled(SIGTERM))
    }

    @Test func aLineTheChildNeverWritesFailsOnceItExits() async throws {
        let control = ChildControl()
        async let outcome = shell("echo other >&2; printf 'wanted, unfinished' >&2", control: control)
        await #expect(throws: ChildProcess.Failure.self) {
            try await control.firstErrorLine { $0.hasPrefix("wanted") }
        }
        #expect(try await outcome.termination == .exited(0))
    }

    @Test func readsBothOutputsWholeWhateverTheirSize() async throws {
        // Each far past a pipe's buffer, standard output first: reading one stream to its end before the other
        // would leave the child blocked on standard error forever.
        let outcome = try await shell(
            "head -c 1000000 /dev/zero | tr '\\0' a; head -c 1000000 /dev/zero | tr '\\0' b >&2; echo end"
        )
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == Data(repeating: UInt8(ascii: "a"), count: 1_000_000) + Data("end\n".utf8))
        #expect(outcome.standardError == Data(repeating: UInt8(ascii: "b"), count: 1_000_000))
    }

    @Test func givesStandardInputAndToleratesAChildThatDoesNotReadIt() async throws {
        let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
        let echoed = try await shell("cat", input: bytes)
        #expect(echoed.termination == .exited(0))
        #expect(echoed.standardOutput == bytes)

        // The child exits without reading: the write fails with EPIPE, which is no error of the run.
        let ignored = try await shell("exit 0", input: Data(count: 4_000_000))
        #expect(ignored.termination == .exited(0))

        let none = try await shell("cat")
        #expect(none.termination == .exited(0) && none.standardOutput.isEmpty, "standard input is /dev/null")
    }

    @Test func reportsExitStatusAndSignal() async throws {
        #expect(try await shell("exit 3").termination == .exited(3))
        let killed = try await shell("kill -KILL $$")
        #expect(killed.termination == .signaled(SIGKILL))
        #expect(!killed.timedOut)
    }

    @Test func killsAChildThatRunsPastTheTimeout() async throws {
        let outcome = try await shell("exec sleep 30", timeout: .milliseconds(200))
        #expect(outcome.timedOut)
        #expect(outcome.termination == .signaled(SIGKILL))
    }

    @Test func runsInTheDirectoryWithOnlyTheEnvironmentGiven() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await onOwnThread {
            try ChildProcess.run("/usr/bin/env", [], environment: ["ONLY": "this"], in: directory.path)
        }
        #expect(outcome.standardOutput == Data("ONLY=this\n".utf8))
        let here = try await shell("pwd -P", in: directory.path)
        let expected = try #require(realpath(directory.path, nil))
        defer { free(expected) }
        #expect(here.standardOutput == Data((String(cString: expected) + "\n").utf8))
    }

    #if os(Linux)
    @Test func theChildInheritsOnlyItsThreeStandardDescriptors() async throws {
        // ls lists /proc/self/fd through a descriptor of its own (3); anything above would be the runner's.
        let outcome = try await shell("exec ls /proc/self/fd")
        #expect(
            outcome.standardOutput == Data("0\n1\n2\n3\n".utf8),
            "\(String(decoding: outcome.standardOutput, as: UTF8.self))"
        )
    }

    @Test func aDelayedSignalCanWaitForTheChildsHandler() async throws {
        // The handler comes only after a pause (as a program's start can take, on a loaded machine): the signal
        // must reach it, not the default action.
        let outcome = try await shell(
            "sleep 0.3; trap 'echo caught; exit 7' TERM; while :; do sleep 0.05; done",
            delayedSignal: .init(SIGTERM, after: .milliseconds(50), countingFromHandler: true)
        )
        #expect(outcome.termination == .exited(7))
        #expect(outcome.standardOutput == Data("caught\n".utf8))
    }
    #endif

    @Test func aProgramThatCannotStartThrows() async throws {
        await #expect(throws: ChildProcess.Failure.self) {
            try await onOwnThread { try ChildProcess.run("/nonexistent/program", [], environment: [:]) }
        }
        await #expect(throws: ChildProcess.Failure.self) {
            try await onOwnThread {
                try ChildProcess.run("/bin/sh", ["-c", "true"], environment: [:], in: "/nonexistent/folder")
            }
        }
    }
}
