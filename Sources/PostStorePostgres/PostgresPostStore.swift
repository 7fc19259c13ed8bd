public import Logging
public import PostStore
@_spi(ServerStore) public import PostStoreEngines
public import PostgresNIO
import Synchronization

/// A store in a PostgreSQL schema: one store that several processes and machines read and write at once.
///
/// Give it the `PostgresClient` your app already runs (Vapor and Hummingbird apps have one), or a
/// ``PostgresStoreLocation`` for which the store runs a client of its own. The store connects on its first call:
/// it creates the schema (`poststore` by default) and its tables, or brings them up to date, from the numbered
/// files of `Migrations/PostgreSQL/`, under an advisory lock so that machines starting at once do not collide.
///
/// It keeps the whole `PostStoreProtocol` contract:
///
/// - A change set is one transaction. Writers of one store are serialized by a table lock taken at the start of
///   each write (waiting at most the lock timeout for other processes' writes; one instance's writes take turns
///   before it); readers never wait for them and see the last commit.
/// - Upserts are streamed in with `COPY`; then the deletions run (so that a change set over its deletion limit is
///   refused before any post is written), and one statement writes the changed and new posts, each statement
///   counting what it did; unchanged posts are not written (`IS DISTINCT FROM`).
/// - Search finds candidates through a `pg_trgm` index on text lowercased by Swift, and checks each exactly, so it
///   answers as every other engine, byte for byte; titles sort in code-point order, as bytes.
/// - A transaction that fails for a passing reason (a lost connection, a server restarting, a serialization
///   failure) is tried again with backoff, whole: a stream is read again from its start.
///
/// For example, with the app's client:
///
/// ```swift
/// import PostStore
/// import PostStoreHTTP
/// import PostStorePostgres
/// import PostgresNIO
///
/// let client = PostgresClient(
///     configuration: .init(host: "db.local", username: "app", password: nil, database: "shop", tls: .disable)
/// )
/// // The app runs the client (`await client.run()`) in a task of its own for as long as it uses the store.
/// let store = try PostgresPostStore(client: client, schema: "posts")
/// let service = SyncService(dataService: try HTTPPostDataService(), store: store)
/// ```
///
/// The password is never shown: messages name the server as `HOST:PORT/DATABASE`.
public final class PostgresPostStore: Sendable {
    /// The clients the store's statements run on.
    let clients: PostgresClients
    /// The store's schema and tables.
    let names: PostgresNames
    /// The server and database, for messages.
    let server: String
    /// Whether the first call creates a missing store.
    let mode: StoreOpenMode
    /// How long a write waits for another writer of the store.
    let lockTimeout: Duration
    /// How long one statement may go without an answer before the connection is closed.
    let answerTimeout: Duration
    /// Whether writes build the search index when the store lacks it (``PostgresSearchIndex``).
    let keepsSearchIndex: Bool
    /// How many times a transaction is tried when it fails for a passing reason.
    static let attempts = 5
    /// Where the store logs retries.
    let logger: Logger
    /// Where an owned client connects, for connections outside its pool (see ``withFirstSession(_:)``); `nil` on
    /// the app's client.
    private let location: PostgresStoreLocation?
    /// The task running an owned client.
    private let runningClient: Task<Void, Never>?
    /// The first call's check of the schema, shared by the calls that wait for it.
    private let preparation = Mutex<Task<Void, any Error>?>(nil)
    /// Whether the check succeeded, so that later calls need not await it.
    private let isPrepared = Atomic(false)
    /// The turns of this instance's writes.
    private let writeTurns = WriteTurns()
    /// The watcher this store's observers share.
    package let watcherSlot = ChangeWatcherSlot()

    /// A store on a client the app runs.
    ///
    /// - Parameters:
    ///   - client: A `PostgresClient` whose `run()` the app calls.
    ///   - schema: The schema holding the store; several stores can share a database.
    ///   - mode: Whether the first call creates a missing store (`.createIfMissing`) or fails with
    ///     `storeNotFound` (`.openExisting`).
    ///   - lockTimeout: How long a write waits for another writer of the same store before `storeBusy`.
    ///   - statementTimeout: How long a statement may go without an answer before the store gives up with
    ///     `storeUnavailable`.
    ///   - searchIndex: Whether writes build the text-search index when the store lacks it (the default). Without
    ///     it, a first sync is cheaper and searches scan the table.
    ///   - logger: Where retries are logged; `nil` logs nothing.
    /// - Throws: `PostStoreError/Code/invalidArgument` for a schema name PostgreSQL cannot take.
    public convenience init(
        client: PostgresClient,
        schema: String = PostgresStoreLocation.defaultSchema,
        mode: StoreOpenMode = .createIfMissing,
        lockTimeout: Duration = .seconds(5),
        statementTimeout: Duration = PostgresStoreLocation.defaultStatementTimeout,
        searchIndex: Bool = true,
        logger: Logger? = nil
    ) throws(PostStoreError) {
        try PostgresStoreLocation.checkSchemaName(schema) {
            PostStoreError(.invalidArgument, "The PostgreSQL store's schema is not valid: \($0).")
        }
        self.init(
            clients: PostgresClients(app: client),
            names: PostgresNames(schema: schema),
            server: "the app's PostgreSQL client",
            mode: mode,
            lockTimeout: lockTimeout,
            answerTimeout: statementTimeout,
            keepsSearchIndex: searchIndex,
            logger: logger,
            location: nil,
            runningClient: nil
        )
    }

    /// A store at a location, on a client of its own that lives as long as the store, which opens connections as
    /// calls need them.
    ///
    /// - Parameters:
    ///   - location: The server, login, database and schema.
    ///   - mode: Whether the first call creates a missing store.
    ///   - lockTimeout: How long a write waits for another writer of the same store before `storeBusy`.
    ///   - maximumConnections: The most connections the store's pool opens.
    ///   - searchIndex: Whether writes build the text-search index when the store lacks it (the default).
    ///   - logger: Where retries are logged; `nil` logs nothing.
    public convenience init(
        location: PostgresStoreLocation,
        mode: StoreOpenMode = .createIfMissing,
        lockTimeout: Duration = .seconds(5),
        maximumConnections: Int = 8,
        searchIndex: Bool = true,
        logger: Logger? = nil
    ) {
        self.init(
            location: location,
            mode: mode,
            lockTimeout: lockTimeout,
            maximumConnections: maximumConnections,
            keepsConnectionsOpen: false,
            searchIndex: searchIndex,
            logger: logger
        )
    }

    /// A store at a location, on a client of its own that lives as long as the store.
    ///
    /// - Parameters:
    ///   - location: The server, login, database and schema.
    ///   - mode: Whether the first call creates a missing store.
    ///   - lockTimeout: How long a write waits for another writer of the same store before `storeBusy`.
    ///   - maximumConnections: The most connections the store's pool opens: one pool for each of postgres-nio's
    ///     event loops, sharing them, so that a call made on an event loop (a request a NIO server handles)
    ///     leases a connection of that loop and needs no thread switch.
    ///   - keepsConnectionsOpen: Whether the pool opens its connections at once and keeps them open, idle, until
    ///     the store goes, for a server answering many short reads (`poststore serve`): postgres-nio's
    ///     keep-alive and idle timers, which otherwise start each time a connection is returned, cost such a
    ///     server more than its statements. `false` opens connections as calls need them and closes them after a
    ///     minute idle, as a command that makes a few calls wants.
    ///   - searchIndex: Whether writes build the text-search index when the store lacks it (the default).
    ///   - logger: Where retries are logged; `nil` logs nothing.
    public convenience init(
        location: PostgresStoreLocation,
        mode: StoreOpenMode = .createIfMissing,
        lockTimeout: Duration = .seconds(5),
        maximumConnections: Int = 8,
        keepsConnectionsOpen: Bool,
        searchIndex: Bool = true,
        logger: Logger? = nil
    ) {
        let clients = PostgresClients(
            configuration: location.clientConfiguration(maximumConnections: maximumConnections),
            maximumConnections: maximumConnections,
            keepsConnectionsOpen: keepsConnectionsOpen
        )
        self.init(
            clients: clients,
            names: PostgresNames(schema: location.schema),
            server: location.serverDescription,
            mode: mode,
            lockTimeout: lockTimeout,
            answerTimeout: location.statementTimeout + .seconds(5),
            keepsSearchIndex: searchIndex,
            logger: logger,
            location: location,
            runningClient: Task { await clients.run() }
        )
    }

    private init(
        clients: PostgresClients,
        names: PostgresNames,
        server: String,
        mode: StoreOpenMode,
        lockTimeout: Duration,
        answerTimeout: Duration,
        keepsSearchIndex: Bool,
        logger: Logger?,
        location: PostgresStoreLocation?,
        runningClient: Task<Void, Never>?
    ) {
        self.clients = clients
        self.names = names
        self.server = server
        self.mode = mode
        self.lockTimeout = lockTimeout
        self.answerTimeout = answerTimeout
        self.keepsSearchIndex = keepsSearchIndex
        self.logger = logger ?? Logger(label: "PostStore.PostgreSQL", factory: { _ in SwiftLogNoOpLogHandler() })
        self.location = location
        self.runningClient = runningClient
    }

    deinit {
        runningClient?.cancel()
    }

    /// The store's schema.
    public var schema: String { names.schema }

    // MARK: - Running calls

    /// Runs a read on a leased connection: after the first call's schema check, tried again when it fails for a
    /// passing reason.
    func read<Result: Sendable>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await prepared()
        return try await withRetries { try await withSession(body) }
    }

    /// Runs a write in one transaction that holds the store's write lock: the table lock that serializes writers
    /// of this store and lets readers be, taken after this instance's earlier writes (`WriteTurns`). A
    /// write is always replayable: a stream makes a new reader per attempt.
    func write<Result: Sendable>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await prepared()
        try await writeTurns.take()
        defer { writeTurns.give() }
        return try await withRetries {
            try await withSession { session in
                try await session.transaction(server: server) { session in
                    try await takeWriteLock(in: session)
                    let result = try await body(session)
                    try await notifyObservers(in: session)
                    return result
                }
            }
        }
    }

    /// Runs the body on a leased connection under the watchdog.
    func withSession<Result: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        try await PostgresSession.withSession(
            client: clients.current,
            limit: answerTimeout,
            logger: logger,
            isolation: isolation
        ) { session in try await body(session) }
    }

    /// Tries the body up to ``attempts`` times while it fails for a passing reason, waiting longer each time
    /// (0.25 s, then doubling), and turns what it finally throws into a `PostStoreError`.
    func withRetries<Result>(_ body: () async throws -> Result) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch  where attempt < Self.attempts && PostgresFailure.isTransient(error) {
                let delay = Duration.milliseconds(250) * (1 << (attempt - 1))
                logger.warning(
                    """
                    PostgreSQL store \(names.schema) at \(server): attempt \(attempt) failed for a passing reason; \
                    trying again in \(delay).
                    """
                )
                try await Task.sleep(for: delay)
                attempt += 1
            } catch {
                // A cancelled call's connection was closed under it (see `PostgresSession`).
                if Task.isCancelled, !(error is PostStoreError) { throw CancellationError() }
                throw PostgresFailure.storeError(error, server: server, attempts: attempt)
            }
        }
    }

    /// Checks, creates or upgrades the schema once, before the first call; a failed check is tried again by the
    /// next call.
    func prepared() async throws {
        if isPrepared.load(ordering: .acquiring) { return }
        let task = preparation.withLock { task in
            if let task { return task }
            let started = Task { try await prepare() }
            task = started
            return started
        }
        do {
            try await task.value
            isPrepared.store(true, ordering: .releasing)
        } catch {
            preparation.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }

    private func prepare() async throws {
        try await withRetries { _ = try await withFirstSession { try await migrator.migrate($0, mode: mode) } }
    }

    /// Runs the body on a connection outside the pool for an owned client, on a pooled one for the app's.
    ///
    /// A connection of its own reports a refused login or an unreachable server at once and precisely, where the
    /// pool would retry for many seconds and then report neither; the store's first call and `migrate --status`
    /// go this way.
    private func withFirstSession<Result: Sendable>(
        _ body: (PostgresSession) async throws -> Result
    ) async throws -> Result {
        guard location != nil else { return try await withSession(body) }
        return try await withConnectionOfItsOwn { connection in
            try await PostgresSession.withSession(on: connection, limit: answerTimeout, logger: logger) {
                try await body($0)
            }
        }
    }

    /// Runs the body on a connection opened for it outside the pools, closed after, for an owned client; on a
    /// pooled one of the app's client. The first call takes one (see ``withFirstSession(_:)``), and so does
    /// listening for commits, which holds its connection as long as it listens: one of a pool's would leave the
    /// calls of its event loop fewer, or none.
    func withConnectionOfItsOwn<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        guard let location else { return try await clients.current.withConnection { try await body($0) } }
        let connection = try await PostgresConnection.connect(
            configuration: try location.connectionConfiguration(),
            id: 0,
            logger: logger
        )
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            // PostgresNIO requires every connection to be closed before it goes.
            try? await connection.close()
            throw error
        }
    }

    /// Brings the store's schema up to date now rather than on the first call; the `poststore` commands call it
    /// right after opening, so that a missing store or an unreachable server is reported before any work.
    ///
    /// - Throws: `PostStoreError`: `storeNotFound` for a missing store opened with `.openExisting`,
    ///   `unsupportedVersion`, `migrationMismatch`, `accessDenied`, `storeUnavailable`.
    public func migrate() async throws {
        try await prepared()
    }

    /// The schema's migrations, applied and pending, changing nothing.
    ///
    /// - Throws: `PostStoreError`, as ``migrate()`` (a missing store has every migration pending).
    func migrationStatus() async throws -> PostgresMigrator.Status {
        try await withRetries { try await withFirstSession { try await migrator.status($0) } }
    }

    /// The store's migrator.
    private var migrator: PostgresMigrator { PostgresMigrator(names: names, server: server, lockTimeout: lockTimeout) }

    /// `storeNotFound` for this store.
    var notFound: PostStoreError { migrator.notFound }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

/// A store on a database server: `PostServer` handles its requests on their connections' event loops.
@_spi(ServerStore) extension PostgresPostStore: ServerStore {}
