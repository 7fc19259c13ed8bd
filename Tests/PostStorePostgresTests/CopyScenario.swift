import Foundation
import PostStore
import PostStoreNIO
import PostStoreTestSupport
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// A `COPY … FROM STDIN` whose connection closes, or whose server fails it, at a chosen moment; run in a child
/// process (``ChildScenario``) through postgres-nio alone or through the store's ``PostgresCopyIn``. Every scenario
/// expects the copy to fail with an error, promptly, and the process to go on.
///
/// The moments are made exact by running the copy's code on the connection's event loop (as ``PostgresCopyIn``
/// does), where it can look at the connection and act within one turn of the loop.
enum CopyScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The client closes the connection while it is in copy mode (postgres-nio: ConnectionStateMachine.swift:970).
    case clientClosesInCopyMode
    /// The backend is terminated, and a write reaches postgres-nio in the event-loop turn that sees the connection
    /// closed: after the channel's close, before postgres-nio removes its handler (ConnectionStateMachine.swift:822).
    case writeAfterServerClosed
    /// As ``writeAfterServerClosed``, but the body returns there, so `copyFrom` sends `CopyDone` (:834).
    case copyDoneAfterServerClosed
    /// As ``writeAfterServerClosed``, but the body throws there, so `copyFrom` sends `CopyFail` (:846).
    case copyFailAfterServerClosed
    /// The server stops reading (a trigger sleeps), a write waits for back-pressure to ease, and the backend is
    /// terminated: postgres-nio drops the write's wait, which never returns.
    case serverFailsWhileWriteWaits
    /// The server stops reading and the session's watchdog (limit 1 s) gives up in copy mode.
    case serverStopsAnswering
    /// 40 copies whose backends are terminated part way, each round at another moment (1 to 60 ms in), half of them
    /// written in a tight loop and half paced.
    case terminatedPartWay

    /// The scenarios that reproduce postgres-nio 1.33.2's failures through postgres-nio alone.
    static let reproductions: [CopyScenario] = [
        .clientClosesInCopyMode, .writeAfterServerClosed, .copyDoneAfterServerClosed, .copyFailAfterServerClosed,
        .serverFailsWhileWriteWaits, .terminatedPartWay,
    ]

    /// The scenarios the store's copy must survive. It never closes a connection in copy mode itself: its watchdog
    /// holds off instead (``serverStopsAnswering``).
    static let storeCases: [CopyScenario] = [
        .writeAfterServerClosed, .copyDoneAfterServerClosed, .copyFailAfterServerClosed, .serverFailsWhileWriteWaits,
        .serverStopsAnswering, .terminatedPartWay,
    ]

    var testDescription: String { rawValue }
}

/// What runs the copy: postgres-nio's `copyFrom` alone, or the store's ``PostgresCopyIn``.
enum CopyDriver: String, Sendable {
    case postgresNIO
    case postStore

    /// The name ``ChildScenario`` hands the child.
    func childName(_ scenario: CopyScenario) -> String { "\(rawValue):\(scenario.rawValue)" }
}

/// The child's side: runs the scenario that ``ChildScenario/current`` names.
@Suite(.enabled(if: ChildScenario.current != nil, "runs only in a child process of PostgresCopyTests"))
struct ChildScenarioEntry {
    @Test func run() async throws {
        let parts = (ChildScenario.current ?? "").split(separator: ":").map(String.init)
        let driver = try #require(parts.count == 2 ? CopyDriver(rawValue: parts[0]) : nil, "bad scenario name")
        let scenario = try #require(CopyScenario(rawValue: parts[1]), "bad scenario name")
        try await CopyScenarioRun(driver: driver).run(scenario)
    }
}

/// One scenario's run, in the child.
struct CopyScenarioRun: Sendable {
    let driver: CopyDriver

    private static let logger = Logger(label: "CopyScenario")

    /// Sends one chunk of rows into the copy.
    typealias Send = (ByteBuffer) async throws -> Void

    /// What the body throws to fail the copy on purpose.
    struct Abandoned: Error {}

    func run(_ scenario: CopyScenario) async throws {
        switch scenario {
        case .clientClosesInCopyMode:
            try await expectCopyFails { connection, _, send in
                try await send(Self.rows(count: 10))
                try await connection.close()
                try await send(Self.rows(count: 10))
            }
        case .writeAfterServerClosed:
            try await expectCopyFails { connection, backend, send in
                try await send(Self.rows(count: 10))
                try await Self.terminateAndSeeClosed(backend, of: connection)
                try await send(Self.rows(count: 10))
            }
        case .copyDoneAfterServerClosed:
            try await expectCopyFails { connection, backend, send in
                try await send(Self.rows(count: 10))
                try await Self.terminateAndSeeClosed(backend, of: connection)
            }
        case .copyFailAfterServerClosed:
            try await expectCopyFails { connection, backend, send in
                try await send(Self.rows(count: 10))
                try await Self.terminateAndSeeClosed(backend, of: connection)
                throw Abandoned()
            }
        case .serverFailsWhileWriteWaits:
            try await copyIntoAStalledServer(limit: .seconds(600)) { connection, backend in
                try await Self.terminate(backend)
            }
        case .serverStopsAnswering:
            try await copyIntoAStalledServer(limit: .seconds(1)) { _, _ in }
        case .terminatedPartWay:
            for round in 1...40 {
                guard try await copyTerminatedPartWay(round: round, paced: round.isMultiple(of: 2)) else { return }
            }
        }
    }

    // MARK: - Scenarios

    /// Runs a copy whose body is expected to make it fail, and checks that it did.
    private func expectCopyFails(
        _ body: @escaping @Sendable (PostgresConnection, Int32, Send) async throws -> Void
    ) async throws {
        let (connection, backend) = try await Self.connectWithTable()
        defer { Task { try? await connection.close() } }
        do {
            try await copy(on: connection, limit: .seconds(600)) { send in try await body(connection, backend, send) }
            Issue.record("scenario: the copy succeeded")
        } catch {
            Self.say("the copy failed: \(String(reflecting: error).prefix(160))")
        }
    }

    /// Writes into a table whose trigger sleeps until the channel stays full (a write waits for back-pressure, or
    /// the store's copy for the channel to drain), runs `act`, and checks that the copy fails within 10 s after.
    private func copyIntoAStalledServer(
        limit: Duration,
        act: @escaping @Sendable (PostgresConnection, Int32) async throws -> Void
    ) async throws {
        let (connection, backend) = try await Self.connectWithTable(stalling: true)
        defer { Task { try? await connection.close() } }
        let lastProgress = LockedState(ContinuousClock.now)
        let outcome = CopyOutcome()
        let chunk = Self.rows(count: 4_000)
        let copying = Task {
            do {
                try await copy(on: connection, limit: limit) { send in
                    while true {
                        try await send(chunk)
                        lastProgress.withLock { $0 = .now }
                    }
                }
                outcome.end("succeeded")
            } catch {
                outcome.end("failed: \(String(reflecting: error).prefix(160))")
            }
        }
        // The stall is an absence of writes, which only the clock shows.
        while !outcome.hasEnded, ContinuousClock.now - lastProgress.withLock({ $0 }) < .milliseconds(500) {
            try await Task.sleep(for: .milliseconds(20))
        }
        Self.say("no write for 0.5 s")
        try await act(connection, backend)
        guard let ended = await outcome.value(within: .seconds(10)) else {
            copying.cancel()
            Issue.record("scenario: the copy had not ended 10 s after (a write that never returns)")
            return
        }
        Self.say("the copy \(ended)")
        #expect(ended.hasPrefix("failed"), "scenario: the copy \(ended)")
    }

    /// A copy written without end whose backend is terminated once it has sent 1 to 20 chunks (chosen by the round,
    /// so that a failing round can be replayed): it must fail within 10 s. It never ends by itself, however long the
    /// termination takes on a loaded machine (a copy that ended before its backend was terminated would succeed).
    ///
    /// - Returns: Whether it did.
    private func copyTerminatedPartWay(round: Int, paced: Bool) async throws -> Bool {
        let (connection, backend) = try await Self.connectWithTable()
        defer { Task { try? await connection.close() } }
        let outcome = CopyOutcome()
        let chunk = Self.rows(count: paced ? 100 : 1_000)
        // The fault lands at a point of the copy that the round chooses: after 1 to 20 chunks (7 and 20 have no
        // common factor, so 20 rounds would take every count once).
        let chunksBeforeFault = 1 + round * 7 % 20
        let (faultIsDue, dueNow) = AsyncStream.makeStream(of: Void.self)
        let started = ContinuousClock.now
        let copying = Task {
            do {
                try await copy(on: connection, limit: .seconds(600)) { send in
                    var sent = 0
                    while true {
                        try await send(chunk)
                        sent += 1
                        if sent == chunksBeforeFault { dueNow.finish() }
                        if paced { try await Task.sleep(for: .milliseconds(2)) }
                    }
                }
                outcome.end("succeeded")
            } catch {
                outcome.end("failed: \(String(describing: error).prefix(80))")
            }
            dueNow.finish()
        }
        for await _ in faultIsDue {}
        try await Self.terminate(backend)
        let fault = "after \(chunksBeforeFault) chunks"
        guard let ended = await outcome.value(within: .seconds(10) - (ContinuousClock.now - started)) else {
            copying.cancel()
            let what = "the copy had not ended 10 s after it started (a write that never returns)"
            Issue.record("scenario: round \(round), terminated \(fault): \(what)")
            return false
        }
        Self.say("round \(round): the copy \(ended)")
        #expect(ended.hasPrefix("failed"), "scenario: round \(round), terminated \(fault): the copy \(ended)")
        return true
    }

    // MARK: - The copy

    /// Runs a copy into `t (id, body)` through the driver, handing the body a way to send rows. postgres-nio's
    /// `copyFrom` runs on the connection's event loop, as the store's does.
    private func copy(
        on connection: PostgresConnection,
        limit: Duration,
        _ body: (Send) async throws -> Void
    ) async throws {
        switch driver {
        case .postgresNIO:
            try await withTaskExecutorPreference(Self.executor(of: connection)) {
                try await connection.copyFrom(table: "t", columns: ["id", "body"], logger: Self.logger) { writer in
                    try await body { try await writer.write($0) }
                }
            }
        case .postStore:
            try await PostgresSession.withSession(on: connection, limit: limit, logger: Self.logger) { session in
                let copy = try #require(PostgresCopyIn(session: session), "postgres-nio's channel out of reach")
                try await copy.run(into: "t", columns: ["id", "body"]) { sender in
                    try await body { try await sender.send($0) }
                }
            }
        }
    }

    /// The event loop's executor (the store's own, so that a send made on the loop keeps the loop's turn).
    private static func executor(of connection: PostgresConnection) -> EventLoopTaskExecutor {
        EventLoopTaskExecutor.executor(for: connection.eventLoop)
    }

    /// Terminates the backend, then waits on the connection's event loop until the channel is inactive, and
    /// returns in the loop's turn right after: the channel closed, postgres-nio's handler not yet removed (its removal
    /// is queued behind that turn).
    private static func terminateAndSeeClosed(_ backend: Int32, of connection: PostgresConnection) async throws {
        let inactive = try await InactiveSignal.install(on: connection)
        try await terminate(backend)
        await withTaskExecutorPreference(executor(of: connection)) { await inactive.wait() }
    }

    // MARK: - The server

    /// A connection of its own with a temporary table `t (id bigint, body text)`, and its backend's process id;
    /// with `stalling`, the table's trigger sleeps 30 s at the first row, so that the server stops reading.
    private static func connectWithTable(stalling: Bool = false) async throws -> (PostgresConnection, Int32) {
        let connection = try await connect()
        try await execute("CREATE TEMPORARY TABLE t (id bigint, body text)", on: connection)
        if stalling {
            try await execute(
                """
                CREATE FUNCTION pg_temp.stall() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN PERFORM pg_sleep(30); RETURN NEW; END $$
                """,
                on: connection
            )
            try await execute(
                "CREATE TRIGGER stall BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION pg_temp.stall()",
                on: connection
            )
        }
        let backend = try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(Int32.self)
            .first { _ in true }
        return (connection, try #require(backend))
    }

    private static func connect() async throws -> PostgresConnection {
        var configuration = try PostgresStoreLocation(url: PostgresTestURL.url(schema: "unused"))
            .connectionConfiguration()
        configuration.tls = .disable
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }

    private static func execute(_ sql: String, on connection: PostgresConnection) async throws {
        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {}
    }

    /// Terminates a backend from a connection of its own, as an administrator or a failover would.
    private static func terminate(_ backend: Int32) async throws {
        let connection = try await connect()
        try await execute("SELECT pg_terminate_backend(\(backend))", on: connection)
        try await connection.close()
    }

    /// `count` rows of `t`, in `COPY`'s text format.
    private static func rows(count: Int) -> ByteBuffer {
        var rows = ""
        for id in 0..<count { rows += "\(id)\tlorem ipsum dolor sit amet, consectetur adipiscing elit \(id)\n" }
        return ByteBuffer(string: rows)
    }

    /// A line on standard error, which the parent shows when the scenario fails.
    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("scenario: \(line)\n".utf8))
    }
}

/// A handler at the end of a connection's pipeline that tells when the channel goes inactive: its waiter resumes
/// from within the channel's close, so that the waiter's next turn on the loop comes before the handlers' removal.
private final class InactiveSignal: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    private let state = LockedState<(isInactive: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Adds a signal to the connection's pipeline.
    static func install(on connection: PostgresConnection) async throws -> InactiveSignal {
        let channel = try #require(connection.nioChannel)
        let signal = InactiveSignal()
        try await channel.eventLoop.submit { try channel.pipeline.syncOperations.addHandler(signal) }.get()
        return signal
    }

    /// Returns once the channel is inactive.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isInactive = state.withLock { state in
                if !state.isInactive { state.waiter = continuation }
                return state.isInactive
            }
            if isInactive { continuation.resume() }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLock { state in
            state.isInactive = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
        context.fireChannelInactive()
    }
}

/// How a scenario's copy ended, awaited until it ends or until a deadline (a write that never returns never ends
/// it): the first of the two resumes the waiter.
private final class CopyOutcome: Sendable {
    private let state = LockedState<(ended: String?, timedOut: Bool, waiter: CheckedContinuation<String?, Never>?)>(
        (nil, false, nil)
    )

    /// Whether the copy has ended.
    var hasEnded: Bool { state.withLock { $0.ended != nil } }

    /// Records the copy's end and wakes a waiter.
    func end(_ outcome: String) {
        let waiter = state.withLock { state in
            state.ended = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// The copy's outcome once it ends, or `nil` if it has not within `limit`.
    func value(within limit: Duration) async -> String? {
        let deadline = Task { [self] in
            try? await Task.sleep(for: limit)
            let waiter = state.withLock { state in
                state.timedOut = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let now: (answered: Bool, value: String?) = state.withLock { state in
                if state.ended != nil || state.timedOut { return (true, state.ended) }
                state.waiter = continuation
                return (false, nil)
            }
            if now.answered { continuation.resume(returning: now.value) }
        }
    }
}
