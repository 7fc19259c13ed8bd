import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run to its end with its wall time and its own peak memory, read from `wait4`'s resource usage, so
/// each measure's memory is its own and not the harness's.
struct ChildProcess {
    /// What a finished run took.
    struct Outcome {
        /// Wall time from spawning to reaping, seconds.
        let seconds: Double
        /// The child's peak resident set size, in MiB.
        let peakMegabytes: Double
        /// The exit status (`-1` when it was killed by a signal).
        let status: Int32
    }

    /// Runs `arguments[0]` (a path, or a name looked up on `PATH`) with its output sent to `outputPath`, or to
    /// `/dev/null`.
    static func run(_ arguments: [String], outputPath: String = "/dev/null") throws -> Outcome {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in cArguments { free(argument) }
        }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = (ContinuousClock.now - start).seconds
        #if canImport(Darwin)
        let megabytes = Double(usage.ru_maxrss) / 1_048_576
        #else
        let megabytes = Double(usage.ru_maxrss) / 1024
        #endif
        let exited = status & 0x7F == 0
        return Outcome(seconds: seconds, peakMegabytes: megabytes, status: exited ? (status >> 8) & 0xFF : -1)
    }

    /// Whether a program is on `PATH`.
    static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            access("\($0)/\(name)", X_OK) == 0
        }
    }
}

/// A benchmark that could not run: the harness prints it and exits 1.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
