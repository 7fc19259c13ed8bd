import Foundation
import PostStoreTestSupport
import Synchronization

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
    /// Standard output and standard error are read on threads of their own while the process runs, so a process that
    /// fills one pipe while the other is being read cannot deadlock.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: The whole environment the process sees; nothing is inherited.
    ///   - directory: The working directory.
    ///   - standardInput: Bytes written to the process's standard input, which is then closed; `nil` connects it to
    ///     `/dev/null`, so a command that reads it never waits on the test runner's own input.
    ///   - timeout: How long the process may run before it is killed (the result then says so).
    ///   - interrupt: A signal to send after a delay, unless the process has ended by then.
    ///   - fileSizeLimit: The most KiB the process may write to any one file (`ulimit -f`, with SIGXFSZ ignored):
    ///     a write past it fails with `EFBIG`, as on a full disk.
    /// - Returns: How the process ended and what it wrote.
    /// - Throws: ``Failure`` when the binary cannot be found or started.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        in directory: String,
        standardInput: Data? = nil,
        timeout: Duration = .seconds(60),
        interrupt: (after: Duration, signal: Int32)? = nil,
        fileSizeLimit: Int? = nil
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
                interrupt: interrupt
            )
        }
    }

    // MARK: - Internals

    private static let location: Result<URL, Failure> = {
        // Writing to a child that exited without reading its input must fail with EPIPE, not kill the test runner.
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
        interrupt: (after: Duration, signal: Int32)?
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let error = Pipe()
        let input = standardInput.map { _ in Pipe() }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input ?? FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try ProcessLaunch.run(process)
        } catch {
            throw Failure(description: "Cannot start \(executable.path): \(error)")
        }

        let outputData = readInBackground(output.fileHandleForReading)
        let errorData = readInBackground(error.fileHandleForReading)
        if let input, let standardInput {
            Thread {
                // EPIPE when the process exits without reading everything: what it did read is what counts.
                try? input.fileHandleForWriting.write(contentsOf: standardInput)
                try? input.fileHandleForWriting.close()
            }.start()
        }

        if let interrupt {
            // As a person pressing Ctrl-C (SIGINT) or a supervisor stopping it (SIGTERM) would, mid-run.
            let (seconds, attoseconds) = interrupt.after.components
            let wait = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
            if exited.wait(timeout: wait) == .timedOut {
                kill(process.processIdentifier, interrupt.signal)
            } else {
                exited.signal()
            }
        }
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
        var timedOut = false
        if exited.wait(timeout: deadline) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        return CommandResult(
            arguments: arguments,
            status: process.terminationStatus,
            killedBySignal: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            // The pipes reach end of file once the process (and anything that inherited them) has gone.
            standardOutput: outputData(),
            standardError: errorData()
        )
    }

    /// Starts reading `handle` to its end on a thread of its own; the function returned waits for the bytes.
    private static func readInBackground(_ handle: FileHandle) -> () -> Data {
        let received = Received()
        Thread {
            let bytes = (try? handle.readToEnd()) ?? Data()
            received.bytes.withLock { $0 = bytes }
            received.done.signal()
        }.start()
        return {
            received.done.wait()
            return received.bytes.withLock { $0 }
        }
    }

    /// What a reading thread hands back.
    private final class Received: Sendable {
        let bytes = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
    }
}
