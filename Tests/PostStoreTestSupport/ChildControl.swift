import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A handle on a running child for a test that acts at moments of its own choosing: the child's standard input is
/// held back until ``releaseInput()``, and ``send(_:)`` signals the child while it runs.
///
/// For example, a sync that has started but cannot finish until another has committed:
///
/// ```swift
/// let control = ChildControl()
/// async let slow = sandbox.run(["sync", "--from", "-"], input: posts, control: control)
/// try await rival()
/// control.releaseInput()
/// ```
public final class ChildControl: Sendable {
    /// The running child's pid: `nil` before the spawn and once the child has exited (before it is reaped, so that
    /// a signal can never reach a process that reused the pid).
    private let pid = Mutex<pid_t?>(nil)
    private let input = DispatchSemaphore(value: 0)

    /// Creates a handle that holds the input until ``releaseInput()``.
    public init() {}

    /// Lets the child read its standard input (once the bytes are written, it is closed).
    public func releaseInput() {
        input.signal()
    }

    /// Sends `signal` to the child if it is still running.
    ///
    /// - Parameter signal: The signal, for example `SIGINT` or `SIGKILL`.
    /// - Returns: Whether the child was running, so the signal was sent.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        pid.withLock { pid in
            guard let pid else { return false }
            return kill(pid, signal) == 0
        }
    }

    // MARK: - For ChildProcess

    /// The child has been spawned.
    func attach(_ child: pid_t) {
        pid.withLock { $0 = child }
    }

    /// The child has exited: no more signals, and the input is let go so its writer ends (with `EPIPE`).
    func detach() {
        pid.withLock { $0 = nil }
        input.signal()
    }

    /// Blocks the input's writer until ``releaseInput()`` or the child's exit.
    func waitForInputRelease() {
        input.wait()
        input.signal()
    }
}
