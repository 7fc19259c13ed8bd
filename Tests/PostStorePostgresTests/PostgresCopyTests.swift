import PostStoreTestSupport
import Testing

/// A `COPY … FROM STDIN` whose connection closes must fail with an error, never stop the process: through
/// postgres-nio 1.33.2 alone it does not (each scenario of ``CopyScenario/reproductions`` traps or hangs, see
/// scripts/reliability/RELIABILITY.md), through the store's ``PostgresCopyIn`` it does. Each scenario runs in a child
/// process, so that a trap fails its test instead of ending the test run.
@Suite(
    .enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"),
    .enabled(if: ChildScenario.runner != nil, "needs the test runner as an executable to start again (Linux)")
)
struct PostgresCopyTests {
    @Test(
        .disabled(
            """
            postgres-nio 1.33.2 stops the process when a COPY's connection closes: a failed precondition at \
            ConnectionStateMachine.swift:970 when its client closes it in copy mode, and at :822, :834 or :846 when a \
            write, CopyDone or CopyFail reaches it after the channel closed but before its handler was removed; and a \
            write waiting for back-pressure never returns once the server fails the copy \
            (scripts/reliability/RELIABILITY.md)
            """
        ),
        arguments: CopyScenario.reproductions
    )
    func postgresNIOsCopyFailsWhenItsConnectionCloses(_ scenario: CopyScenario) async throws {
        let outcome = try await ChildScenario.run(CopyDriver.postgresNIO.childName(scenario))
        #expect(outcome.termination == .exited(0), "\(outcome.summary)")
    }

    @Test(arguments: CopyScenario.storeCases)
    func theStoresCopyFailsWhenItsConnectionCloses(_ scenario: CopyScenario) async throws {
        let outcome = try await ChildScenario.run(CopyDriver.postStore.childName(scenario))
        #expect(outcome.termination == .exited(0), "\(outcome.summary)")
    }
}
