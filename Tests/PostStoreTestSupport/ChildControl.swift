import Foundation
import PostStore

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
    // Both states are under an `NSLock` (`LockedState`), not a `Mutex`: the child's threads and the test contend for
    // them, and the thread sanitizer cannot see a contended `Mutex` on Linux (it reported the pid's as a race).

    /// The running child's pid: `nil` before the spawn and once the child has exited (before it is reaped, so that
    /// a signal can never reach a process that reused the pid).
    private let pid = LockedState<pid_t?>(nil)
    private let input = DispatchSemaphore(value: 0)
    /// What the child has written to standard output (0) and standard error (1) so far, whether that is all (the
    /// pipe is at its end), and who waits for more.
    private let streams = [ReceivedBytes(), ReceivedBytes()]

    /// The child's standard output or standard error.
    public enum Stream: Int, Sendable, CustomStringConvertible {
        case output, error

        public var description: String { self == .output ? "standard output" : "standard error" }
    }

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

    /// Waits for the child's first line on standard error that `isWanted` accepts, and returns it.
    ///
    /// For what a child says only as it runs, such as the port a server was given by the system (`--port 0`).
    ///
    /// - Parameters:
    ///   - timeout: How long to wait: ``hangLimit`` unless told (under the thread sanitizer a serve child's start
    ///     and a test's requests took over a minute, commit 8315569).
    ///   - isWanted: Whether a whole line (without its newline) is the one wanted.
    /// - Throws: ``ChildProcess/Failure`` when the child closes standard error (it exits) or the time is up first; its
    ///   description holds what the child wrote.
    public func firstErrorLine(
        timeout: Duration = hangLimit,
        where isWanted: (String) -> Bool
    ) async throws -> String {
        try await firstLine(of: .error, timeout: timeout, where: isWanted)
    }

    /// Waits for the child's first whole line on `stream` that `isWanted` accepts, and returns it: what a child
    /// reports as it goes, such as each report of `sync --follow`.
    ///
    /// - Parameters:
    ///   - stream: Standard output or standard error.
    ///   - timeout: How long to wait: ``hangLimit`` unless told.
    ///   - isWanted: Whether a whole line (without its newline) is the one wanted.
    /// - Throws: ``ChildProcess/Failure`` when the child closes the stream (it exits) or the time is up first; its
    ///   description holds what the child wrote there.
    @discardableResult
    public func firstLine(
        of stream: Stream,
        timeout: Duration = hangLimit,
        where isWanted: (String) -> Bool
    ) async throws -> String {
        try await whenLines(of: stream, timeout: timeout, "No such line") { lines in lines.first(where: isWanted) }
    }

    /// Waits until the child has written at least `count` whole lines on `stream`, and returns them all: what a
    /// child that prints the same line again (`query --watch`) has printed so far.
    ///
    /// - Parameters:
    ///   - stream: Standard output or standard error.
    ///   - count: How many lines to wait for.
    ///   - timeout: How long to wait: ``hangLimit`` unless told.
    /// - Throws: As ``firstLine(of:timeout:where:)``.
    @discardableResult
    public func lines(of stream: Stream, atLeast count: Int, timeout: Duration = hangLimit) async throws -> [String] {
        try await whenLines(of: stream, timeout: timeout, "Fewer than \(count) lines") { lines in
            lines.count >= count ? lines : nil
        }
    }

    /// Waits until `pick` finds what it wants in the child's whole lines on `stream`, and returns it.
    private func whenLines<Picked>(
        of stream: Stream,
        timeout: Duration,
        _ missing: String,
        _ pick: ([String]) -> Picked?
    ) async throws -> Picked {
        try await streams[stream.rawValue].when(timeout: timeout) { reason, written in
            let text = String(decoding: written, as: UTF8.self)
            let why = reason == "it ended" ? "the child closed it" : reason
            return ChildProcess.Failure(description: "\(missing) on \(stream): \(why). It wrote: \(text)")
        } _: { written, _ in
            // The last piece is a line still being written (or nothing after the last newline).
            let text = String(decoding: written, as: UTF8.self)
            return pick(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
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

    /// The child wrote `bytes` to a stream.
    func received(_ bytes: ArraySlice<UInt8>, on stream: Stream) {
        streams[stream.rawValue].append(bytes)
    }

    /// The child's stream is at its end: every byte has been received.
    func ended(_ stream: Stream) {
        streams[stream.rawValue].complete()
    }

    /// Blocks the input's writer until ``releaseInput()`` or the child's exit.
    func waitForInputRelease() {
        input.wait()
        input.signal()
    }
}
