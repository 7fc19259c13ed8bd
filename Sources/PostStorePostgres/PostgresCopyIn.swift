import PostStoreNIO
import PostgresNIO

/// `COPY … FROM STDIN` on a session's connection, driven so that postgres-nio 1.33.2 never reaches the failed
/// preconditions that stop the process when a copy's connection closes (scripts/reliability/RELIABILITY.md has the
/// finding):
///
/// - Every call into postgres-nio's copy writer — each `write`, and the `CopyDone` or `CopyFail` that `copyFrom`
///   sends once the body returns or throws — runs on the connection's event loop, in the same turn as a look that
///   the connection is open. postgres-nio fails such a call gracefully once its channel handler is gone, but traps
///   when it lands between the channel's close and the handler's removal, one turn later; a closed connection is
///   therefore waited out (its close future) before the copy goes on.
/// - A chunk is written only when the channel is writable, so postgres-nio never parks a write until back-pressure
///   eases: an error the server sends meanwhile (a terminated backend, a repeated id) drops that wait, and the
///   write would never return. postgres-nio keeps the channel internal; ``init(session:)`` finds it by
///   reflection, and returns `nil` (the caller then binds arrays instead) where it cannot.
/// - The session's watchdog does not close the connection while it is in copy mode (a client's close then traps
///   too): past its limit it marks the call stopped, the copy sees that and ends with `CopyFail`, and the
///   watchdog closes the connection after.
///
/// The body produces its rows on Swift's pool, as any code does; only the sends hop to the event loop.
struct PostgresCopyIn {
    /// The session whose connection the copy runs on.
    let session: PostgresSession
    private let channel: any Channel
    private let executor: EventLoopTaskExecutor

    /// A copy on the session's connection; `nil` when its channel cannot be reached (another postgres-nio).
    init?(session: PostgresSession) {
        guard let channel = session.connection.nioChannel else { return nil }
        self.session = session
        self.channel = channel
        executor = EventLoopTaskExecutor.executor(for: session.connection.eventLoop)
    }

    /// Sends rows in PostgreSQL's text format to a copy in progress.
    struct Sender {
        fileprivate let copy: PostgresCopyIn
        fileprivate let writer: PostgresCopyFromWriter

        /// Sends whole lines of rows, once the channel can take them.
        ///
        /// - Throws: ``PostgresSessionError/connectionClosed`` once the connection is closed;
        ///   ``PostgresSessionError/stoppedAnswering`` when the watchdog's limit passed while the channel stayed
        ///   full; the error the server answered the copy with so far; `CancellationError`.
        func send(_ rows: ByteBuffer) async throws {
            guard rows.readableBytes > 0 else { return }
            try await withTaskExecutorPreference(copy.executor) {
                try await copy.waitUntilWritable()
                // The same event-loop turn as the look: nothing can close the connection in between.
                assert(copy.channel.eventLoop.inEventLoop, "a copy's write off its event loop")
                try await writer.write(rows)
            }
            try copy.session.stillWorking()
        }
    }

    /// Runs `COPY table (columns) FROM STDIN` with the rows the body sends, and returns once the server has them
    /// all.
    ///
    /// - Parameters:
    ///   - table: The table, unqualified (the session's search path finds it).
    ///   - columns: The columns each row fills, in order.
    ///   - body: Sends the rows.
    /// - Throws: What the body throws; the server's error; ``PostgresSessionError`` for a connection closed or a
    ///   server that stopped answering.
    func run(into table: String, columns: [String], _ body: (Sender) async throws -> Void) async throws {
        try session.stillWorking()
        try await withTaskExecutorPreference(executor) {
            // A statement written to a closed connection is never answered: look first, in the turn that writes it.
            if session.connection.isClosed { throw PostgresSessionError.connectionClosed }
            try await session.connection.copyFrom(table: table, columns: columns, logger: session.logger) { writer in
                // In copy mode, on the event loop.
                var failure: (any Error)?
                do {
                    try session.watchdog.holdCopyMode()
                    try await withTaskExecutorPreference(globalConcurrentExecutor) {
                        try await body(Sender(copy: self, writer: writer))
                    }
                } catch {
                    failure = error
                }
                // Back on the event loop: what copyFrom sends next (CopyDone, or CopyFail when this throws) must
                // find the connection open or its handler gone, and the watchdog may close the connection only
                // after that (its close runs in a later turn of this loop).
                await waitOutClose()
                session.watchdog.releaseCopyMode()
                assert(channel.eventLoop.inEventLoop, "a copy's end off its event loop")
                if let failure { throw failure }
            }
        }
    }

    /// Waits, on the event loop, until the channel can take more, and returns in the turn of its last look.
    private func waitUntilWritable() async throws {
        while true {
            if session.connection.isClosed {
                await waitOutClose()
                throw PostgresSessionError.connectionClosed
            }
            if channel.isWritable { return }
            if session.watchdog.hasStopped { throw PostgresSessionError.stoppedAnswering }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Once the connection is closed, waits until postgres-nio has removed its handler (the close future
    /// completes after), when every call into the copy writer fails instead of trapping.
    private func waitOutClose() async {
        guard session.connection.isClosed else { return }
        try? await session.connection.closeFuture.get()
    }
}

extension PostgresConnection {
    /// The connection's NIO channel, which postgres-nio 1.33.2 keeps internal, read by reflection; `nil` if a
    /// version of postgres-nio stores it otherwise.
    var nioChannel: (any Channel)? {
        Mirror(reflecting: self).children.first { $0.label == "channel" }?.value as? any Channel
    }
}
