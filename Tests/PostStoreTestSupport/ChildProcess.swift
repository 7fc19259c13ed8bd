public import Foundation
import PostStoreCSpawn
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program with `posix_spawn` and waits for it, collecting everything it writes.
///
/// Every test that starts a process goes through here. `posix_spawn` is safe to call from any number of threads at
/// once, and nothing here lists or copies file descriptors the way Foundation's `Process.run()` does on Linux (it
/// read past a buffer of glibc's and crashed test runs). Each pipe is made close-on-exec, so a child started by
/// another test at the same moment never inherits its ends; the child gets them as 0, 1 and 2, and nothing else
/// (glibc 2.34 or later closes the rest in the child, Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT` likewise). Standard
/// output and standard error are read to end of file together (one thread, `poll`), so a child that fills one pipe
/// while nothing reads the other cannot stall, and nothing it wrote is lost. The child starts with every signal at
/// its default action and none blocked, as a shell starts a program.
///
/// `run` blocks its thread until the child has exited: from async code call it through ``onOwnThread(_:)``, never on
/// the concurrency pool's few threads. For example:
///
/// ```swift
/// let outcome = try await onOwnThread {
///     try ChildProcess.run("/usr/bin/env", ["sqlite3", "-batch", path, ".tables"], environment: ["PATH": "/usr/bin"])
/// }
/// #expect(outcome.termination == .exited(0))
/// ```
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// The child exited with this status (0 to 255).
        case exited(Int32)
        /// A signal ended the child (a crash, a signal sent to it, the timeout's `SIGKILL`): the signal's number.
        case signaled(Int32)

        /// "exit 3" or "killed by signal 9".
        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// What a finished child wrote and how it ended.
    public struct Outcome: Sendable {
        /// How the child ended.
        public let termination: Termination
        /// Whether the child ran out of time and was killed with `SIGKILL`.
        public let timedOut: Bool
        /// Everything the child (and anything sharing its pipes) wrote to standard output.
        public let standardOutput: Data
        /// Everything the child (and anything sharing its pipes) wrote to standard error.
        public let standardError: Data
    }

    /// A signal sent to a running child after a delay, as a person pressing Ctrl-C (`SIGINT`) or a supervisor
    /// stopping it (`SIGTERM`) would mid-run.
    ///
    /// The delay counts from the spawn, or, with `countingFromHandler`, from the moment the child has a handler
    /// installed for the signal (read from `/proc/<pid>/status` on Linux; elsewhere it counts from the spawn). A
    /// program installs its handlers as it starts, and starting can take longer than any fixed delay on a loaded
    /// machine: a signal that came first would end the child by its default action, and a test of what the handler
    /// does would fail for the machine's pace.
    public struct DelayedSignal: Sendable {
        /// The signal's number.
        public var signal: Int32
        /// How long to wait before sending it.
        public var delay: Duration
        /// Whether the delay starts once the child catches the signal rather than at the spawn.
        public var countsFromHandler: Bool

        /// A signal to send after `delay`.
        ///
        /// - Parameters:
        ///   - signal: The signal's number.
        ///   - delay: How long to wait before sending it.
        ///   - countingFromHandler: Whether the delay starts once the child has a handler installed for the
        ///     signal (Linux) rather than at the spawn. A child that never installs one gets no signal then, until
        ///     the timeout kills it.
        public init(_ signal: Int32, after delay: Duration, countingFromHandler: Bool = false) {
            self.signal = signal
            self.delay = delay
            self.countsFromHandler = countingFromHandler
        }
    }

    /// Why a child could not be started: the pipes, or the spawn itself (no such program, not executable, no such
    /// working directory).
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String
    }

    /// Runs `executable` with `arguments` and waits until it has exited and both of its output pipes are at end of
    /// file.
    ///
    /// Blocks the calling thread; from async code, call it through ``onOwnThread(_:)``.
    ///
    /// - Parameters:
    ///   - executable: The program's path (not looked up on `PATH`; use `/usr/bin/env` for that). It is also the
    ///     child's `argv[0]`.
    ///   - arguments: The arguments after the program name.
    ///   - environment: The whole environment the child sees; nothing is inherited.
    ///   - directory: The child's working directory; `nil` keeps the test runner's.
    ///   - standardInput: Bytes written to the child's standard input (from a thread of their own), which is then
    ///     closed. A child that exits without reading them all is not an error: what it read is what counts.
    ///     `nil` connects standard input to `/dev/null`, so a child that reads it never waits on the runner's input.
    ///   - timeout: How long, from the spawn, the child may run before it is killed with `SIGKILL`; the outcome then
    ///     says ``Outcome/timedOut``. A minute unless told: a ceiling for a hung child, not a wait that passes (a
    ///     plain run's children end within seconds on two cores; a sanitizer's slowdown of them is not measured).
    ///   - delayedSignal: A signal to send after a delay (see ``DelayedSignal``), unless the child has exited by
    ///     then or the timeout comes first.
    ///   - control: A handle that holds `standardInput` back until the test releases it and signals the child when
    ///     the test chooses.
    /// - Returns: How the child ended and what it wrote.
    /// - Throws: ``Failure`` when the pipes cannot be made or the child cannot be started.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        in directory: String? = nil,
        standardInput: Data? = nil,
        timeout: Duration = .seconds(60),
        delayedSignal: DelayedSignal? = nil,
        control: ChildControl? = nil
    ) throws -> Outcome {
        // Standard output, standard error and, when there are bytes to give, standard input.
        var pipes: [(read: Int32, write: Int32)] = []
        do {
            for _ in 0..<(standardInput == nil ? 2 : 3) { pipes.append(try makePipe()) }
        } catch {
            for pipe in pipes {
                close(pipe.read)
                close(pipe.write)
            }
            throw error
        }
        let (output, errors, input) = (pipes[0], pipes[1], pipes.count > 2 ? pipes[2] : nil)

        let started = DispatchTime.now()
        let spawned = spawn(
            executable,
            arguments,
            environment: environment,
            directory: directory,
            input: input?.read,
            output: output.write,
            errors: errors.write
        )
        // The child holds its own copies now (or never started): the runner keeps only its ends, so the child's exit
        // brings the pipes to end of file.
        for descriptor in [input?.read, output.write, errors.write].compactMap(\.self) { close(descriptor) }
        let pid: pid_t
        switch spawned {
        case .success(let spawnedPid):
            pid = spawnedPid
        case .failure(let failure):
            for descriptor in [input?.write, output.read, errors.read].compactMap(\.self) { close(descriptor) }
            throw failure
        }

        // Attached before its output is read: a test that acts on a line of it can then always signal the child.
        control?.attach(pid)
        let collected = readToEnd([output.read, errors.read], tellingOf: control)
        if let input, let standardInput { writeInBackground(standardInput, to: input.write, after: control) }
        let exited = DispatchSemaphore(value: 0)
        Thread {
            waitForExitWithoutReaping(pid)
            exited.signal()
        }
        .start()

        // Only this thread reaps the child, after every kill below: until then its pid cannot be reused, so a
        // signal can never reach another process.
        let deadline = started + seconds(timeout)
        var hasExited = false
        if let delayedSignal {
            var origin = started
            if delayedSignal.countsFromHandler {
                // Checked every 5 ms: the child has no way to say "ready" but its signal mask.
                while !hasExited, DispatchTime.now() < deadline,
                    catches(pid, delayedSignal.signal) == false
                {
                    hasExited = exited.wait(timeout: .now() + .milliseconds(5)) == .success
                }
                origin = .now()
            }
            let sendAt = origin + seconds(delayedSignal.delay)
            if !hasExited, sendAt < deadline {
                hasExited = exited.wait(timeout: sendAt) == .success
                if !hasExited { kill(pid, delayedSignal.signal) }
            }
        }
        var timedOut = false
        if !hasExited, exited.wait(timeout: deadline) == .timedOut {
            timedOut = true
            kill(pid, SIGKILL)
            exited.wait()
        }
        control?.detach()
        let termination = try reap(pid)
        let streams = collected()
        return Outcome(
            termination: termination,
            timedOut: timedOut,
            standardOutput: streams[0],
            standardError: streams[1]
        )
    }

    // MARK: - Internals

    /// A pipe whose ends are both closed on exec.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard poststore_pipe_cloexec(&descriptors) == 0 else {
            throw Failure(description: "Cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        return (descriptors[0], descriptors[1])
    }

    /// Starts the child with `input` (or `/dev/null`), `output` and `errors` as its descriptors 0, 1 and 2.
    private static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        directory: String?,
        input: Int32?,
        output: Int32,
        errors: Int32
    ) -> Result<pid_t, Failure> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // dup2 clears close-on-exec on the copy, so these three (and only these) survive the exec.
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        // Close-on-exec covers every pipe made here; this covers whatever else the runner has open without it (a
        // lock file's descriptor in a child would hold that lock as long as the child lives).
        let closing = poststore_spawn_file_actions_addclosefrom(&actions, STDERR_FILENO + 1)
        guard closing == 0 else {
            return .failure(Failure(description: "Cannot start \(executable): \(reason(closing))"))
        }
        if let directory {
            let status = poststore_spawn_file_actions_addchdir(&actions, directory)
            guard status == 0 else {
                return .failure(Failure(description: "Cannot start \(executable) in \(directory): \(reason(status))"))
            }
        }

        // The runner ignores SIGPIPE (and may block signals on this thread); the child starts as a shell starts it.
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
        // Darwin has no pipe2: close everything the file actions did not set up, so a pipe made by another thread
        // between its pipe() and fcntl() cannot leak into this child.
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            return .failure(Failure(description: "Cannot start \(executable): \(reason(status))"))
        }
        return .success(pid)
    }

    /// Reads `descriptors` to end of file on a thread of their own and closes them; the function returned waits for
    /// that thread and gives each descriptor's bytes, in order. `control` is also given the bytes of the first two
    /// (the child's standard output and standard error) as they arrive.
    private static func readToEnd(_ descriptors: [Int32], tellingOf control: ChildControl?) -> () -> [Data] {
        let collected = Collected()
        Thread {
            let streams = readAll(descriptors, tellingOf: control)
            collected.streams.withLock { $0 = streams }
            collected.done.signal()
        }
        .start()
        return {
            collected.done.wait()
            return collected.streams.withLock { $0 }
        }
    }

    /// The reading thread's loop: `poll` every open descriptor, read what is ready, close each at end of file.
    private static func readAll(_ descriptors: [Int32], tellingOf control: ChildControl?) -> [Data] {
        var streams = descriptors.map { _ in Data() }
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while polled.contains(where: { $0.fd >= 0 }) {
            // poll ignores the negative descriptors of the streams already at end of file.
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let descriptor = polled[index].fd
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    streams[index].append(contentsOf: buffer[..<count])
                    if let stream = ChildControl.Stream(rawValue: index) {
                        control?.received(buffer[..<count], on: stream)
                    }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    // End of file (a hang-up reads as 0 once the pipe is empty) or an error on the pipe.
                    close(descriptor)
                    polled[index].fd = -1
                    if let stream = ChildControl.Stream(rawValue: index) { control?.ended(stream) }
                }
            }
        }
        for entry in polled where entry.fd >= 0 { close(entry.fd) }
        // Also when a failed poll ended the loop early.
        for stream in [ChildControl.Stream.output, .error] { control?.ended(stream) }
        return streams
    }

    /// Writes `bytes` to `descriptor` on a thread of their own (once `control`, if any, lets it), then closes it;
    /// stops early, quietly, when the child closes its end (`EPIPE`).
    private static func writeInBackground(_ bytes: Data, to descriptor: Int32, after control: ChildControl?) {
        Thread {
            control?.waitForInputRelease()
            // A write to a pipe nobody reads raises SIGPIPE in the writing thread; blocked here, the write returns
            // EPIPE instead, whatever the runner's disposition, and the pending signal goes with the thread.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
            }
            close(descriptor)
        }
        .start()
    }

    /// Blocks until `pid` has exited, leaving it a zombie so that its pid stays taken until ``reap(_:)``.
    private static func waitForExitWithoutReaping(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// Whether `pid` has a handler installed for `signal`: the `SigCgt` mask of `/proc/<pid>/status`; `nil` where
    /// there is no such file (not Linux).
    private static func catches(_ pid: pid_t, _ signal: Int32) -> Bool? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("SigCgt:") {
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            return mask & (1 << UInt64(signal - 1)) != 0
        }
        return nil
    }

    /// Collects the exited child's status.
    private static func reap(_ pid: pid_t) throws -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            // Only EINTR can happen to our own exited child; anything else means someone else reaped it.
            guard errno == EINTR else {
                throw Failure(description: "Cannot collect child \(pid)'s status: \(reason(errno))")
            }
        }
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal, 0 for an exit.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// `duration` in seconds, as a `DispatchTime` offset.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The system's text for an error number.
    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// What the reading thread hands back.
    private final class Collected: Sendable {
        let streams = Mutex([Data]())
        let done = DispatchSemaphore(value: 0)
    }
}
