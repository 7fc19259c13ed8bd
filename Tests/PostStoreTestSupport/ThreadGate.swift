public import Foundation

/// Where test doubles block their own threads (a store's connection, an injected file system) until the test lets
/// them go or until enough of them have arrived: each waiter sleeps on a condition variable that every arrival and
/// the opening wake, so nothing polls the clock.
///
/// A wait gives up after `giveUpAfter` only so that a broken expectation fails instead of hanging: the limit is
/// reached when the test fails, never on its way to passing.
///
/// `@unchecked Sendable`: `arrivals` and `isOpen` are read and written only while `condition` is locked.
public final class ThreadGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrivals = 0
    private var isOpen = false

    /// How long a blocked thread waits before it gives up.
    public static let giveUpAfter: TimeInterval = 30

    public init() {}

    /// How many threads have arrived.
    public var arrived: Int {
        condition.lock()
        defer { condition.unlock() }
        return arrivals
    }

    /// Counts the calling thread in, then blocks it until `count` threads have arrived.
    ///
    /// - Returns: Whether they did before ``giveUpAfter``.
    public func arriveAndWait(forAll count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrivals += 1
        condition.broadcast()
        return wait { self.arrivals >= count }
    }

    /// Blocks the calling thread until ``open()``.
    ///
    /// - Returns: Whether the gate opened before ``giveUpAfter``.
    public func waitUntilOpen() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return wait { self.isOpen }
    }

    /// Lets every thread waiting in ``waitUntilOpen()`` go, and every later one pass.
    public func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits, with `condition` locked, until `holds`; `false` at the deadline.
    private func wait(until holds: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.giveUpAfter)
        while !holds() {
            guard condition.wait(until: deadline) else { return holds() }
        }
        return true
    }
}
