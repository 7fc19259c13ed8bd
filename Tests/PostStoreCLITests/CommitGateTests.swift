import Foundation
import Testing

@testable import PostStoreCLI

/// What a signal does as a command's write moves to its commit: it stops the process before, is held back while the
/// commit step runs, and lets the command finish after.
@Suite struct CommitGateTests {
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalBeforeTheCommitStopsTheProcess(signal: Int32) {
        let spy = SignalSpy()
        spy.deliver(signal)
        #expect(spy.actions == [.stop])
        // The handler stops the process itself on `.stop`; the gate's `stop` is for signals it held back.
        #expect(spy.stops.isEmpty)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalAfterTheCommitLetsTheCommandFinish(signal: Int32) {
        let spy = SignalSpy()
        spy.gate.writeCommitted()
        spy.deliver(signal)
        #expect(spy.actions == [.letThrough])
        #expect(spy.stops.isEmpty)
    }

    @Test func aSignalDuringACommitThatCommitsIsLetThrough() {
        let spy = SignalSpy()
        let committed = spy.gate.committing {
            spy.deliver(SIGTERM)
            return true
        }
        #expect(committed)
        spy.deliver(SIGINT)
        #expect(spy.actions == [.holdBack, .letThrough])
        #expect(spy.stops.isEmpty)
    }

    @Test func aSignalDuringACommitThatDoesNotCommitStopsTheProcessWhenTheStepReturns() {
        let spy = SignalSpy()
        let committed = spy.gate.committing {
            spy.deliver(SIGHUP)
            #expect(spy.stops.isEmpty, "held back until the step returns")
            return false
        }
        #expect(!committed)
        #expect(spy.actions == [.holdBack])
        #expect(spy.stops == [SIGHUP])
    }

    @Test func aSignalDuringACommitThatThrowsStopsTheProcessWhenTheStepThrows() {
        struct StepFailed: Error {}
        let spy = SignalSpy()
        #expect(throws: StepFailed.self) {
            try spy.gate.committing {
                spy.deliver(SIGINT)
                throw StepFailed()
            }
        }
        #expect(spy.stops == [SIGINT])
    }

    @Test func aCommitStepWithoutASignalStopsNothing() {
        let spy = SignalSpy()
        #expect(!spy.gate.committing { false })
        // Not committed: a later signal stops the process again.
        spy.deliver(SIGTERM)
        #expect(spy.actions == [.stop])
        #expect(spy.stops.isEmpty)
    }
}
