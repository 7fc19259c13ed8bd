import PostgresNIO
import Testing

@testable import PostStorePostgres

/// A store that runs its own pool has one for each of postgres-nio's event loops, sharing its connections, and a
/// call made on an event loop leases from that loop's pool.
@Suite struct PostgresClientsTests {
    @Test func theConnectionsAreSharedOverTheLoops() {
        #expect(PostgresClients.shares(of: 8, over: 2) == [4, 4])
        #expect(PostgresClients.shares(of: 8, over: 3) == [3, 3, 2])
        #expect(PostgresClients.shares(of: 1, over: 4) == [1])
        #expect(PostgresClients.shares(of: 3, over: 8) == [1, 1, 1])
        #expect(PostgresClients.shares(of: 0, over: 2) == [1])
    }

    @Test func aCallOnAnEventLoopLeasesFromThatLoopsPool() async throws {
        let configuration = PostgresClient.Configuration(
            host: "127.0.0.1",
            username: "nobody",
            password: nil,
            database: nil,
            tls: .disable
        )
        let loops = Array(PostgresClient.defaultEventLoopGroup.makeIterator())
        let clients = PostgresClients(
            configuration: configuration,
            maximumConnections: 2 * loops.count,
            keepsConnectionsOpen: false
        )
        #expect(clients.all.count == loops.count)
        var chosen: [ObjectIdentifier] = []
        for loop in loops {
            let onLoop = try await loop.submit { ObjectIdentifier(clients.current) }.get()
            let again = try await loop.submit { ObjectIdentifier(clients.current) }.get()
            #expect(onLoop == again, "a loop's calls lease from one pool")
            chosen.append(onLoop)
        }
        #expect(Set(chosen).count == loops.count, "each loop has a pool of its own")
        // Off every loop, calls take the pools in turn.
        let offLoop = Set((0..<loops.count).map { _ in ObjectIdentifier(clients.current) })
        #expect(offLoop == Set(chosen))
    }
}
