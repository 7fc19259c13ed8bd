/// Where an engine keeps the ``ChangeWatcher`` its observers share: held weakly, so that the watcher, and what it
/// holds (its probe's connection, its news), goes with the last observer; and told of the engine's own commits.
package final class ChangeWatcherSlot: Sendable {
    private struct Slot: @unchecked Sendable {
        // `weak var` makes the struct non-Sendable to the compiler; it is read and written only under the lock
        // of the `LockedState` that holds it, and `ChangeWatcher` is Sendable.
        weak var watcher: ChangeWatcher?
    }

    private let slot = LockedState(Slot())

    /// An empty slot.
    package init() {}

    /// The watcher in the slot, or a new one made by `make` and kept there while anyone holds it.
    package func watcher(_ make: () -> ChangeWatcher) -> ChangeWatcher {
        slot.withLock { slot in
            if let watcher = slot.watcher { return watcher }
            let watcher = make()
            slot.watcher = watcher
            return watcher
        }
    }

    /// Whether no watcher is in the slot: every observer has ended and let go of it.
    package var isEmpty: Bool {
        slot.withLock { $0.watcher == nil }
    }

    /// Tells the watcher, if any, that the store has just committed a write: it reads the store at once.
    package func storeDidCommit() {
        slot.withLock { $0.watcher }?.storeDidChange()
    }
}
