import Foundation
import Synchronization

@testable import PostStoreCLI

/// A ``CommitGate`` of a test's own, and what it did with signals: the signals it stopped the process by (it only
/// records them) and what each signal the test delivered was told. For example:
///
/// ```swift
/// let spy = SignalSpy()
/// spy.deliver(SIGTERM)
/// #expect(spy.actions == [.stop])
/// ```
final class SignalSpy: Sendable {
    /// The gate, whose `stop` records the signal instead of ending the process.
    let gate: CommitGate

    /// What the gate did.
    private let recorded: Recorded

    /// Creates a gate that no write has committed through yet.
    init() {
        let recorded = Recorded()
        self.recorded = recorded
        gate = CommitGate(stop: { signalNumber in recorded.state.withLock { $0.stops.append(signalNumber) } })
    }

    /// The signals the gate stopped the process by, in order.
    var stops: [Int32] { recorded.state.withLock { $0.stops } }

    /// What each signal delivered with ``deliver(_:)`` was told, in order.
    var actions: [CommitGate.Action] { recorded.state.withLock { $0.actions } }

    /// Delivers `signalNumber` to the gate as the process's signal handler does, and records what it was told.
    @Sendable func deliver(_ signalNumber: Int32) {
        let action = gate.receive(signalNumber)
        recorded.state.withLock { $0.actions.append(action) }
    }

    /// A write that tells the gate of its commit and delivers `signalNumber` right after it.
    func write(deliveringAfterCommit signalNumber: Int32) -> InterruptSafeWrite {
        InterruptSafeWrite(gate: gate, afterCommit: { self.deliver(signalNumber) })
    }

    /// The record, shared with the gate's `stop`.
    private final class Recorded: Sendable {
        let state = Mutex<(stops: [Int32], actions: [CommitGate.Action])>(([], []))
    }
}
