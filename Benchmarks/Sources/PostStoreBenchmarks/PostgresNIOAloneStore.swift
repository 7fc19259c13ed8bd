import PostStore
@_spi(ServerStore) import PostStoreEngines
import PostStorePostgres
import PostgresNIO
import Synchronization

/// The floor under `poststore serve` over PostgreSQL: a store whose lookup by id is postgres-nio alone
/// (``PostgresNIOAloneMeasure/Lookup``), served by the same `PostServer` (as a server store, on the requests'
/// event loops); it answers nothing else.
///
/// Its connections are arranged as `PostgresPostStore` arranges its own for a server, one set per event loop of
/// postgres-nio's group (the server's too), so that a request's statement is written and answered on the loop that
/// handles the request: a kept-open client of 4 connections per loop, or, `held`, 4 connections per loop outside any
/// pool, which the loop's requests take in turn (postgres-nio queues the statements of a connection): what a design
/// without a pool's lease and release could reach at best.
final class PostgresNIOAloneStore: ServerStore {
    private let clients: [ObjectIdentifier: PostgresClient]
    private let connections: [ObjectIdentifier: [PostgresConnection]]
    private let turns = Atomic(0)

    init(location: PostgresStoreLocation, held: Bool) async throws {
        var clients: [ObjectIdentifier: PostgresClient] = [:]
        var connections: [ObjectIdentifier: [PostgresConnection]] = [:]
        for (index, loop) in PostgresClient.defaultEventLoopGroup.makeIterator().enumerated() {
            if held {
                var configuration = PostgresConnection.Configuration(
                    host: location.host,
                    port: location.port,
                    username: location.username,
                    password: location.password,
                    database: location.database,
                    tls: .disable
                )
                configuration.options.additionalStartupParameters = PostgresNIOAloneMeasure.searchPath(of: location)
                for number in 0..<4 {
                    connections[ObjectIdentifier(loop), default: []].append(
                        try await PostgresConnection.connect(
                            on: loop,
                            configuration: configuration,
                            id: index * 4 + number,
                            logger: Logger(label: "floor")
                        )
                    )
                }
            } else {
                clients[ObjectIdentifier(loop)] = PostgresNIOAloneMeasure.makeClient(
                    location: location,
                    keepsConnectionsOpen: true,
                    maximumConnections: 4,
                    eventLoop: loop
                )
            }
        }
        self.clients = clients
        self.connections = connections
    }

    /// Runs every client until the task is cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for client in clients.values { group.addTask { await client.run() } }
        }
    }

    /// Closes the held connections (postgres-nio requires every connection to be closed before it goes).
    func close() async {
        for connection in connections.values.joined() { try? await connection.close() }
    }

    func post(id: Int) async throws -> Post? {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop.map(ObjectIdentifier.init)
        let statement = PostgresNIOAloneMeasure.Lookup(id: id)
        let rows =
            if let loop, let held = connections[loop] {
                try await held[turns.add(1, ordering: .relaxed).oldValue % held.count].execute(
                    statement,
                    logger: Logger(label: "floor")
                )
            } else if let loop, let client = clients[loop] {
                try await client.execute(statement)
            } else {
                throw PostStoreError(.invalidArgument, "The postgres-nio floor answers on its own event loops only.")
            }
        for try await (userId, title, body) in rows {
            return Post(userId: userId, id: id, title: title, body: body)
        }
        return nil
    }

    /// Nothing to check: the store was made by `poststore sync` before the server starts.
    func migrate() async throws {}

    private static var refusal: PostStoreError {
        PostStoreError(.invalidArgument, "The postgres-nio floor serves a post by id only.")
    }

    func apply(_ changes: PostChangeSet) async throws -> WriteSummary { throw Self.refusal }
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary { throw Self.refusal }
    func query(_ query: PostQuery) async throws -> [Post] { throw Self.refusal }
    func count() async throws -> Int { throw Self.refusal }
    func removeAll() async throws { throw Self.refusal }
    func syncState(for source: String) async throws -> SyncState? { throw Self.refusal }
    func syncStates() async throws -> [SyncState] { throw Self.refusal }
}
