import PostStore

/// Times queries on a filled store, in process: the median (p50) of many repetitions per query, in microseconds.
struct QueryMeasures<Store: PostStoreProtocol> {
    let store: Store
    /// Whether to time the search that returns most posts (seconds a time over a network).
    var measuresWholeResults = true

    /// A term about one post in 10,000 carries, whose trigrams are as rare (see ``PostFileGenerator``).
    static var rareTerm: String { "zyzzyva" }
    /// A term as rare, whose trigrams are common: "quo" begins many lorem-ipsum words.
    static var rareTermOfCommonTrigrams: String { "quokka" }
    /// A word of the lorem-ipsum vocabulary, in most posts.
    static var commonTerm: String { "dolor" }

    func run() async throws -> [String: Double] {
        let count = try await store.count()
        var figures: [String: Double] = ["posts": Double(count)]
        // A seeded generator: the system one costs a system call per number, which would show in the lookups.
        var random = SplitMix64(state: 42)
        figures["id"] = try await medianMicroseconds(repetitions: 20_000) {
            try await store.post(id: Int.random(in: 1...count, using: &random)) != nil ? 1 : 0
        }
        figures["user"] = try await medianMicroseconds(repetitions: 5_000) {
            try await store.query(PostQuery(userIds: [Int.random(in: 1...(count / 10), using: &random)])).count
        }
        figures["rare"] = try await medianMicroseconds(repetitions: 50) {
            try await store.query(PostQuery(search: Self.rareTerm)).count
        }
        figures["rareResults"] = Double(try await store.query(PostQuery(search: Self.rareTerm)).count)
        figures["rareOfCommon"] = try await medianMicroseconds(repetitions: 50) {
            try await store.query(PostQuery(search: Self.rareTermOfCommonTrigrams)).count
        }
        figures["rareOfCommonResults"] = Double(
            try await store.query(PostQuery(search: Self.rareTermOfCommonTrigrams)).count
        )
        figures["common10"] = try await medianMicroseconds(repetitions: 50) {
            try await store.query(PostQuery(search: Self.commonTerm, limit: 10)).count
        }
        if measuresWholeResults {
            figures["commonAll"] = try await medianMicroseconds(repetitions: 5) {
                try await store.query(PostQuery(search: Self.commonTerm)).count
            }
            figures["commonResults"] = Double(try await store.query(PostQuery(search: Self.commonTerm)).count)
        }
        return figures
    }
}
