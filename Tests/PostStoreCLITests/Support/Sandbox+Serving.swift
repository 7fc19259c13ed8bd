import Foundation
import PostStoreTestSupport
import Testing

extension Sandbox {
    /// Runs `poststore serve --store STORE --allow-writes` on `port` (0: one the system chooses) while `body` runs,
    /// given the port; then stops it with SIGTERM and expects it to exit 0.
    @discardableResult
    func serving<Result>(
        _ store: String,
        port: Int = 0,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let control = ChildControl()
        async let served = run(
            ["serve", "--store", store, "--port", String(port), "--allow-writes", "--quiet"],
            control: control
        )
        let result: Result
        do {
            result = try await body(try await control.servedPort())
        } catch {
            control.send(SIGTERM)
            _ = try? await served
            throw error
        }
        control.send(SIGTERM)
        #expect(try await served.exitCode == 0)
        return result
    }

    /// Runs `poststore sync ARGUMENTS`, a follower, while `body` runs, given its control; then sends it `signal`
    /// and returns how it ended. A `body` that throws kills the follower first, so that no test waits for a child
    /// that runs until stopped.
    func following(
        _ arguments: [String],
        stoppedBy signal: Int32 = SIGINT,
        _ body: (ChildControl) async throws -> Void
    ) async throws -> CommandResult {
        try await runningUntilStopped(["sync"] + arguments, stoppedBy: signal, body)
    }

    /// Runs `poststore ARGUMENTS`, a command that runs until stopped (`sync --follow`, `query --watch`), while
    /// `body` runs, given its control; then sends it `signal` and returns how it ended. A `body` that throws kills
    /// the command first, so that no test waits for a child that runs until stopped.
    func runningUntilStopped(
        _ arguments: [String],
        stoppedBy signal: Int32 = SIGINT,
        _ body: (ChildControl) async throws -> Void
    ) async throws -> CommandResult {
        let control = ChildControl()
        async let followed = run(arguments, control: control)
        do {
            try await body(control)
        } catch {
            control.send(SIGKILL)
            _ = try? await followed
            throw error
        }
        control.send(signal)
        return try await followed
    }
}

extension ChildControl {
    /// Waits for the first report a `sync --format json` child prints that `isWanted` accepts: each line of its
    /// standard output is one, printed once its write has committed.
    ///
    /// - Throws: ``ChildProcess/Failure`` when the child exits first.
    @discardableResult
    func report(where isWanted: @escaping ([String: Any]) -> Bool) async throws -> String {
        try await firstLine(of: .output) { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map(isWanted) ?? false
        }
    }
}
