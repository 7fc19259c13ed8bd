import Foundation
import PostStore
import PostStoreHTTP
import PostStoreServer
import PostStoreTestSupport
import PostStoreTesting
import PropertyBased
import Synchronization
import Testing

/// Random histories of writes on a served store A — its own writes, prunes, and writes served over HTTP — while a
/// replica B1 syncs by changes now and then (in answers of one to five changes) and a replica B2 follows: after
/// every write to B1 or B2 the replica holds a state that A held, and at the end both equal A byte for byte. Each
/// engine is A once (behind `poststore serve`) and B once.
///
/// `POSTSTORE_DIFFERENTIAL_ROUNDS` sets the rounds per pair (3 by default; the deep checks run more).
@Suite struct ReplicaDifferentialTests {
    /// The pairs: every engine as A and as B.
    static var pairs: [(origin: ServedEngine, replica: ServedEngine)] {
        let engines = ServedEngine.available
        return engines.indices.map { (engines[$0], engines[($0 + 1) % engines.count]) }
    }

    static var rounds: Int {
        ProcessInfo.processInfo.environment["POSTSTORE_DIFFERENTIAL_ROUNDS"].flatMap(Int.init) ?? 3
    }

    @Test(arguments: pairs.indices)
    func replicasOnlyEverHoldStatesTheSourceHeld(pair: Int) async throws {
        let (originEngine, replicaEngine) = Self.pairs[pair]
        for round in 0..<Self.rounds {
            try await run(round: round, origin: originEngine, replica: replicaEngine)
        }
    }

    private func run(round: Int, origin originEngine: ServedEngine, replica replicaEngine: ServedEngine) async throws {
        let folder = try TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        var random = Xoshiro(seed: (UInt64(round), UInt64(originEngine.rawValue.count), 0x5EED, 0x9E37_79B9_7F4A_7C15))
        let origin = try await originEngine.makeStore(in: folder, name: "origin")
        let held = HeldStates()
        try await origin.upsert(SamplePosts.make(count: 12))
        try await held.record(origin)
        var configuration = PostServerConfiguration(allowsWrites: true)
        configuration.maximumWait = .seconds(60)
        try await RunningServer.with(origin, configuration: configuration) { client in
            let url = URL(string: "http://127.0.0.1:\(client.port)/posts")!
            let stepped = try await replicaEngine.makeStore(in: folder, name: "stepped")
            let followed = try await replicaEngine.makeStore(in: folder, name: "followed")
            func service(into store: any PostStoreProtocol) throws -> SyncService {
                SyncService(dataService: try HTTPPostDataService(url: url), store: store, clock: SystemClock())
            }
            // The token of each state the follower reports: the end waits for A's last one among them.
            let (reported, reporting) = AsyncStream.makeStream(of: ChangeToken.self)
            let follower = Task {
                defer { reporting.finish() }
                var checked = 0
                let options = SyncOptions(prune: true, deletionLimit: .unlimited)
                do {
                    let source = try HTTPPostDataService(url: url).source
                    for try await report in try service(into: followed).follow(options, wait: .seconds(60)) {
                        let token = try #require(report.changeToken)
                        // The follower applies its next answer while this one's report is read here: the check is
                        // of the state the replica holds now, whichever checkpoint that is.
                        let (now, posts) = try await Self.state(of: followed, source: source)
                        #expect(now.revision >= token.revision, "followed to \(token), now at \(now)")
                        #expect(posts == (await held.state(at: now)), "followed to \(now)")
                        checked += 1
                        reporting.yield(token)
                    }
                } catch is CancellationError {
                    // Stopped once caught up, perhaps during a check's read.
                }
                return checked
            }
            var steppedChecks = 0
            for step in 0..<30 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    // Upserts: new ids and changed posts.
                    let ids = (0..<(1 + Int.random(in: 0..<3, using: &random))).map { _ in
                        1 + Int.random(in: 0..<20, using: &random)
                    }
                    try await origin.upsert(
                        Set(ids).map {
                            Post(userId: $0 % 3, id: $0, title: "round \(round) step \(step)", body: "b\($0)")
                        }
                    )
                case 1:
                    try await origin.delete(ids: Set((0..<2).map { _ in 1 + Int.random(in: 0..<20, using: &random) }))
                case 2:
                    // A prune: a whole sync into A that keeps some posts, changes one and adds one.
                    var kept = try await origin.query(.all).filter { _ in Int.random(in: 0..<3, using: &random) > 0 }
                    if !kept.isEmpty { kept[0].body += " pruned at \(step)" }
                    kept.append(
                        Post(userId: 1, id: 21 + Int.random(in: 0..<5, using: &random), title: "new", body: "\(step)")
                    )
                    try await origin.apply(
                        PostChangeSet(upserts: Self.distinct(kept), prune: true, deletionLimit: .unlimited)
                    )
                case 3:
                    try await serveWrite(client, origin: origin, random: &random, step: step)
                default:
                    var options = SyncOptions(prune: true, deletionLimit: .unlimited)
                    options.changesLimit = 1 + Int.random(in: 0..<5, using: &random)
                    let report = try await service(into: stepped).sync(options)
                    let token = try #require(report.changeToken)
                    #expect(try await Self.posts(of: stepped) == (await held.state(at: token)), "stepped to \(token)")
                    steppedChecks += 1
                    continue
                }
                try await held.record(origin)
            }
            // Both replicas end equal to A, byte for byte.
            let final = try await origin.changeToken()
            try await service(into: stepped).sync(SyncOptions(prune: true, deletionLimit: .unlimited))
            for await token in reported where token == final { break }
            follower.cancel()
            // A follower that failed ended its reports: its error ends the test.
            let followerChecks = try await follower.value
            let expected = PostJSON.encode(try await origin.query(.all))
            #expect(PostJSON.encode(try await stepped.query(.all)) == expected)
            #expect(PostJSON.encode(try await followed.query(.all)) == expected)
            #expect(steppedChecks > 0 && followerChecks > 1, "\(steppedChecks) stepped, \(followerChecks) followed")
        }
    }

    /// One write through the server: a `PUT`, a `DELETE` or a `POST`.
    private func serveWrite(
        _ client: RawHTTPClient,
        origin: any PostStoreProtocol,
        random: inout Xoshiro,
        step: Int
    ) async throws {
        let ids = try await origin.query(.all).map(\.id)
        let body = Data(#"{"userId": 7, "title": "served \#(step)", "body": "over HTTP"}"#.utf8)
        let answer: RawHTTPClient.Answer
        switch (Int.random(in: 0..<3, using: &random), ids.randomElement(using: &random)) {
        case (0, let id?):
            answer = try await client.send(
                "PUT",
                "/posts/\(id)",
                headers: ["Content-Type": "application/json"],
                body: body
            )
        case (1, let id?):
            answer = try await client.send("DELETE", "/posts/\(id)")
        default:
            answer = try await client.send("POST", "/posts", headers: ["Content-Type": "application/json"], body: body)
        }
        #expect((200...201).contains(answer.status), "\(answer)")
    }

    /// A replica's checkpoint and its posts, read when no write came between them: every applied answer moves
    /// the checkpoint.
    private static func state(
        of replica: any PostStoreProtocol,
        source: String
    ) async throws -> (ChangeToken, [Int: Post]) {
        while true {
            // Present: the replica reported an applied answer, written with its checkpoint.
            let before = try #require(try await replica.syncState(for: source)?.changeToken)
            let posts = try await Self.posts(of: replica)
            if try await replica.syncState(for: source)?.changeToken == before { return (before, posts) }
        }
    }

    /// A store's posts by id.
    private static func posts(of store: any PostStoreProtocol) async throws -> [Int: Post] {
        Dictionary(uniqueKeysWithValues: try await store.query(.all).map { ($0.id, $0) })
    }

    private static func distinct(_ posts: [Post]) -> [Post] {
        var seen = Set<Int>()
        return posts.filter { seen.insert($0.id).inserted }
    }
}

/// The states a store held, by token: recorded after each write, awaited by a replica that may see a token before
/// the test has recorded it. The store's writes are recorded in order, so a token at or below the newest revision
/// recorded that was not recorded itself is one the store never held: `nil`.
private actor HeldStates {
    private var states: [ChangeToken: [Int: Post]] = [:]
    private var newest = -1
    private var waiting: [ChangeToken: [CheckedContinuation<[Int: Post]?, Never>]] = [:]

    /// Records the store's state now under its token.
    func record(_ store: any PostStoreProtocol) async throws {
        let changes = try await store.changes(since: nil)
        let state = Dictionary(uniqueKeysWithValues: changes.posts.map { ($0.id, $0) })
        states[changes.next] = state
        newest = max(newest, changes.next.revision)
        for (token, waiters) in waiting where token.revision <= newest {
            waiting[token] = nil
            for waiter in waiters { waiter.resume(returning: states[token]) }
        }
    }

    /// The state recorded under `token`, once the store's writes up to it are recorded; `nil` for one never held.
    func state(at token: ChangeToken) async -> [Int: Post]? {
        if let state = states[token] { return state }
        if token.revision <= newest { return nil }
        return await withCheckedContinuation { waiting[token, default: []].append($0) }
    }
}
