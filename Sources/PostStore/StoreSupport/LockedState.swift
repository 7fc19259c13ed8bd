import Foundation

/// A value guarded by a lock, read and changed only inside ``withLock(_:)``: `Synchronization.Mutex`'s shape over an
/// `NSLock`, for state that threads contend for (URLSession's delegate queue and the tasks it answers, concurrent
/// resolutions of a dependency).
///
/// On Linux the thread sanitizer (scripts/reliability/tsan.sh) does not see a contended `Mutex` lock — its waiter is
/// handed the lock inside the kernel (a priority-inheritance futex), which the uninstrumented standard library calls
/// directly — and reports the accesses that lock orders as races. An `NSLock` is a pthread mutex, which the sanitizer
/// intercepts. The PostgreSQL engine keeps its `Mutex`es: with this lock in its statement waiter, the sanitizer
/// reported postgres-nio's row sequence, made on an event loop and read by the task that awaited it, as a race; the
/// `Mutex`'s atomic operations are what it sees ordering the two.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, which holds `lock` throughout, and
/// `State` is `Sendable`, so what a caller takes out of it may cross threads.
package final class LockedState<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: State

    /// Creates a lock guarding `value`.
    package init(_ value: State) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
