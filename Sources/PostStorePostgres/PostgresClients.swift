import PostgresNIO
import Synchronization

/// The pools a store's calls lease connections from: the app's one client, or, for a store that runs its own, one
/// client per event loop of postgres-nio's group, so that a call made on an event loop (a request that
/// `poststore serve` handles on its connection's loop) leases a connection of that same loop, and its statement is
/// written and answered with no thread switch.
final class PostgresClients: Sendable {
    /// Every client, each run by ``run()`` when the store owns them.
    let all: [PostgresClient]
    /// The clients by the event loop their connections live on; empty for the app's client.
    private let byLoop: [ObjectIdentifier: PostgresClient]
    /// Spreads the calls made off every event loop over the clients.
    private let turns = Atomic(0)

    /// The app's client.
    init(app client: PostgresClient) {
        all = [client]
        byLoop = [:]
    }

    /// Clients of the store's own, at most `maximumConnections` connections in all.
    ///
    /// - Parameter keepsConnectionsOpen: Whether each pool opens its connections at once and keeps them, idle,
    ///   with no keep-alive: postgres-nio schedules a keep-alive and an idle timer (three tasks and a sleep) every
    ///   time a connection it may close goes back to its pool, which costs a server answering short reads more than
    ///   the statement. Without it, connections open as calls need them and close after a minute idle.
    init(configuration: PostgresClient.Configuration, maximumConnections: Int, keepsConnectionsOpen: Bool) {
        let loops = Array(PostgresClient.defaultEventLoopGroup.makeIterator())
        var all: [PostgresClient] = []
        var byLoop: [ObjectIdentifier: PostgresClient] = [:]
        for (loop, share) in zip(loops, Self.shares(of: maximumConnections, over: loops.count)) {
            var configuration = configuration
            configuration.options.maximumConnections = share
            if keepsConnectionsOpen {
                configuration.options.minimumConnections = configuration.options.maximumConnections
                configuration.options.keepAliveBehavior = nil
            }
            let client = PostgresClient(configuration: configuration, eventLoopGroup: loop)
            all.append(client)
            byLoop[ObjectIdentifier(loop)] = client
        }
        self.all = all
        self.byLoop = byLoop
    }

    /// How many connections each loop's pool may open: as even as they go (8 over 3 loops is 3, 3 and 2), one
    /// pool for each of the first `maximum` loops when there are fewer connections than loops, and at least one.
    static func shares(of maximum: Int, over loops: Int) -> [Int] {
        let count = max(1, min(loops, maximum))
        let maximum = max(1, maximum)
        return (0..<count).map { maximum / count + ($0 < maximum % count ? 1 : 0) }
    }

    /// The client for a call made here: the current event loop's, else the next in turn.
    var current: PostgresClient {
        if all.count == 1 { return all[0] }
        if let loop = MultiThreadedEventLoopGroup.currentEventLoop, let client = byLoop[ObjectIdentifier(loop)] {
            return client
        }
        return all[turns.add(1, ordering: .relaxed).oldValue % all.count]
    }

    /// Runs every client until the task is cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            for client in all { group.addTask { await client.run() } }
        }
    }
}
