import Synchronization

/// What a SIGINT, SIGTERM or SIGHUP does to a command as its write moves to its commit: before the commit it stops
/// the process; while the step that commits runs (a new store's publication) it is held back until the step
/// returns; once the write has committed it lets the command finish, as the store holds what its report will say.
///
/// The process has one gate, ``InterruptHandler/gate``, which its signal handler asks what to do with each signal
/// (``receive(_:)``) and which ``InterruptSafeWrite`` tells of the commit. A test makes a gate of its own, whose
/// `stop` records the signal, and delivers a signal where it chooses by calling ``receive(_:)`` as the handler does.
/// For example:
///
/// ```swift
/// let gate = CommitGate(stop: { signal in print("stopped by \(signal)") })
/// gate.writeCommitted()
/// #expect(gate.receive(SIGTERM) == .letThrough)
/// ```
final class CommitGate: Sendable {
    /// What the signal handler does with a signal.
    enum Action: Equatable, Sendable {
        /// Stop the process by the signal (before the write commits, and in commands that write nothing).
        case stop
        /// Nothing yet: the commit step is running, and ``CommitGate/committing(_:)`` acts on the signal when it
        /// returns.
        case holdBack
        /// Let the command finish (its write has committed); the next such signal ends the process at once.
        case letThrough
    }

    /// What a signal does now: one of ``Mode``'s values.
    private let mode = Atomic<Int>(Mode.stopping)
    /// The last signal received, or 0.
    private let received = Atomic<Int32>(0)
    /// Ends the process by a signal held back during a commit step that did not commit.
    private let stop: @Sendable (Int32) -> Void

    /// Creates a gate that stops the process on a signal until told of a commit.
    ///
    /// - Parameter stop: Ends the process by the signal it is given (the process's gate: deletes a new store's
    ///   staging folder, writes the signal's line and raises the signal). Called by ``committing(_:)``, outside
    ///   signal context; the signal handler stops the process itself when ``receive(_:)`` says ``Action/stop``.
    init(stop: @escaping @Sendable (Int32) -> Void) {
        self.stop = stop
    }

    /// Records a signal and says what to do with it. Async-signal-safe: it only stores and loads atomics.
    ///
    /// - Parameter signalNumber: The signal received.
    /// - Returns: What the handler does with it.
    func receive(_ signalNumber: Int32) -> Action {
        // Recorded before the mode is read (see `committing`).
        received.store(signalNumber, ordering: .sequentiallyConsistent)
        switch mode.load(ordering: .sequentiallyConsistent) {
        case Mode.committed: return .letThrough
        case Mode.holdingBack: return .holdBack
        default: return .stop
        }
    }

    /// Says the command's write has committed durably: from now on a signal lets the command finish.
    @Sendable func writeCommitted() {
        mode.store(Mode.committed, ordering: .sequentiallyConsistent)
    }

    /// Runs the step that commits a write (a new store's publication), holding signals back meanwhile, so the
    /// process never ends between the step's effect and its return.
    ///
    /// - Parameter step: Commits the write and says whether it did.
    /// - Returns: What `step` returns. When it is `true`, the write has committed (``writeCommitted()``); otherwise,
    ///   or when `step` throws, a signal held back stops the process now, as it would have when it came.
    /// - Throws: What `step` throws.
    func committing(_ step: () throws -> Bool) rethrows -> Bool {
        mode.store(Mode.holdingBack, ordering: .sequentiallyConsistent)
        var committed = false
        defer {
            // `receive` records a signal before it reads the mode: one that read "holding back" is seen below.
            mode.store(committed ? Mode.committed : Mode.stopping, ordering: .sequentiallyConsistent)
            let held = received.load(ordering: .sequentiallyConsistent)
            if !committed, held != 0 { stop(held) }
        }
        committed = try step()
        return committed
    }
}

/// What a ``CommitGate`` does with a signal: the values of its mode.
private enum Mode {
    /// ``CommitGate/Action/stop``.
    static let stopping = 0
    /// ``CommitGate/Action/holdBack``.
    static let holdingBack = 1
    /// ``CommitGate/Action/letThrough``.
    static let committed = 2
}
