import PostStore
import PostStoreNIO
import PostStoreTestSupport
import PostgresNIO
import Testing

@testable import PostStorePostgres

/// A session whose connection closed under it fails at once with an error that the store retries, instead of
/// waiting for an answer that PostgresNIO never gives to a statement written to a closed connection (a sync hung
/// that way, for ever, after the server was killed mid-write).
@Suite(.enabled(if: PostgresTestURL.base != nil, "\(PostgresTestURL.howToEnable)"))
struct PostgresSessionTests {
    private let logger = Logger(label: "PostgresSessionTests")

    @Test(.timeLimit(.minutes(5)))
    func aStatementOnAClosedConnectionFailsAtOnce() async throws {
        try await PostgresTestServer.withConnection { connection in
            // The watchdog's limit is beyond the time limit (which counts a busy machine's waits too, hence 5
            // minutes): only the check of the connection can end the call.
            try await PostgresSession.withSession(on: connection, limit: .seconds(600), logger: logger) { session in
                try await session.execute("SELECT 1")
                try await connection.close()
                let error = await #expect(throws: PostgresSessionError.self) { try await session.execute("SELECT 1") }
                #expect(error == .connectionClosed)
                #expect(PostgresFailure.isTransient(PostgresSessionError.connectionClosed))
                await session.rollBack()
            }
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aTransactionWhoseBackendIsTerminatedFailsPromptlyAndCanBeRetried() async throws {
        try await PostgresTestServer.withConnection { connection in
            let error = await #expect(throws: (any Error).self) {
                try await PostgresSession.withSession(on: connection, limit: .seconds(600), logger: logger) { session in
                    try await session.transaction(server: "the test server") { session in
                        let backend = try await session.value("SELECT pg_backend_pid()", as: Int32.self)
                        try await PostgresTestServer.withConnection { other in
                            for try await _ in try await other.query(
                                "SELECT pg_terminate_backend(\(backend))",
                                logger: logger
                            ) {}
                        }
                        try await session.execute("SELECT 1")
                    }
                }
            }
            #expect(error.map(PostgresFailure.isTransient) == true, "\(String(describing: error))")
            #expect(connection.isClosed)
        }
    }

    /// A statement is awaited on its connection's event loop (see `PostgresWatchdog.guarding`), whether the
    /// session runs there (as `poststore serve`'s requests) or elsewhere: a closed connection fails it at once, and a
    /// server that does not answer within the limit ends it, as stopped answering.
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func aClosedConnectionAndASilentServerEndTheStatement(sessionOnTheLoop: Bool) async throws {
        // The server stays silent as long as another session holds the advisory lock the statement waits for.
        let lock = Int64.random(in: 1...Int64.max)
        try await PostgresTestServer.withConnection { holder in
            for try await _ in try await holder.query("SELECT pg_advisory_lock(\(lock))", logger: logger) {}
            try await PostgresTestServer.withConnection { connection in
                try await silentAndClosed(connection, waitingFor: lock, sessionOnTheLoop: sessionOnTheLoop)
            }
            for try await _ in try await holder.query("SELECT pg_advisory_unlock(\(lock))", logger: logger) {}
        }
    }

    /// A statement the server never answers (the lock is held for the whole call) ends as stopped answering once
    /// the watchdog's 1 s limit passes; the test's time limit bounds a watchdog that fails.
    private func silentAndClosed(
        _ connection: PostgresConnection,
        waitingFor lock: Int64,
        sessionOnTheLoop: Bool
    ) async throws {
        let executor = sessionOnTheLoop ? EventLoopTaskExecutor.executor(for: connection.eventLoop) : nil
        let silent = await Task(executorPreference: executor) { [logger] in
            try await PostgresSession.withSession(on: connection, limit: .seconds(1), logger: logger) { session in
                #expect(connection.eventLoop.inEventLoop == sessionOnTheLoop)
                try await session.execute("SELECT pg_advisory_lock(\(lock))")
            }
        }.result
        #expect(throws: PostgresSessionError.stoppedAnswering) { try silent.get() }
        #expect(connection.isClosed)
        let closed = await Task(executorPreference: executor) { [logger] in
            try await PostgresSession.withSession(on: connection, limit: .seconds(600), logger: logger) {
                try await $0.execute("SELECT 1")
            }
        }.result
        #expect(throws: PostgresSessionError.connectionClosed) { try closed.get() }
    }
}
