/// Where an engine keeps its watchers: the one its observers share (``PostStoreProtocol/sharedWatcher``) and any
/// a server made for itself, all held weakly, so that a watcher, and what it holds (its probe's connection, its
/// notifications), goes with the last of its users; each is told of the engine's own commits.
package final class ChangeWatcherSlot: Sendable {
    private struct Weak: @unchecked Sendable {
        // `weak var` makes the struct non-Sendable to the compiler; it is read and written only under the lock
        // of the `LockedState` that holds it, and `ChangeWatcher` is Sendable.
        weak var watcher: ChangeWatcher?
    }

    private struct Slots {
        var shared = Weak()
        var own: [Weak] = []
    }

    private let slots = LockedState(Slots())

    /// An empty slot.
    package init() {}

    /// The shared watcher, or a new one made by `make` and kept while anyone holds it.
    func watcher(_ make: () -> ChangeWatcher) -> ChangeWatcher {
        slots.withLock { slots in
            if let watcher = slots.shared.watcher { return watcher }
            let watcher = make()
            slots.shared.watcher = watcher
            return watcher
        }
    }

    /// Keeps a watcher of its own (a server's) told of the store's commits while it lives.
    func register(_ watcher: ChangeWatcher) {
        slots.withLock { slots in
            slots.own.removeAll { $0.watcher == nil }
            slots.own.append(Weak(watcher: watcher))
        }
    }

    /// Whether no shared watcher is in the slot: every observer has ended and let go of it.
    package var isEmpty: Bool {
        slots.withLock { $0.shared.watcher == nil }
    }

    /// Tells every watcher that the store has just committed a write: each reads the store at once.
    package func storeDidCommit() {
        let watchers = slots.withLock { slots in ([slots.shared] + slots.own).compactMap(\.watcher) }
        for watcher in watchers { watcher.storeDidChange() }
    }
}
