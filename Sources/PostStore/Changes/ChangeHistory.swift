/// The change bookkeeping of a store that keeps its data as values (the in-memory and JSON-file engines): the
/// store's identity and revision, the revision that last wrote each post, tombstones of deleted posts and the
/// overwritten ranges of recent writes. SQLite and PostgreSQL keep the same in tables.
///
/// The history reaches back ``limit`` writes at least: tombstones and write records older than that are dropped
/// (in steps of an eighth of the limit, so that a write rarely pays for it) and ``floor`` moves up to them; a token
/// from before the floor must refetch.
package struct ChangeHistory: Sendable, Equatable {
    /// What a write that replaced or deleted versions overwrote: the lowest and highest revision among them.
    package typealias WriteRecord = ClosedRange<Int>

    /// The store's identity in its tokens.
    package var storeID: String
    /// How many writes have changed posts.
    package private(set) var revision: Int
    /// The oldest revision whose changes since are known.
    package private(set) var floor: Int
    /// The revision of the write that last wrote each post, for revisions past ``floor`` (an older one cannot be in
    /// an answer, so a post missing here counts as written at the floor or before).
    package private(set) var postRevisions: [Int: Int]
    /// The revision of the write that deleted each id, within the history.
    package private(set) var tombstones: [Int: Int]
    /// The overwritten range of each write within the history that replaced or deleted a version.
    package private(set) var writes: [Int: WriteRecord]
    /// How many writes back the history reaches at least.
    package var limit: Int

    /// How many writes back a history reaches unless a store says otherwise: at ten writes a second, a day; at a
    /// sync a minute, almost two years.
    static let defaultLimit = 1_000_000

    /// The history of a new store, or of one whose posts are written before it began (their revision is 0).
    package init(storeID: String = StableHasher.random(), revision: Int = 0, limit: Int = defaultLimit) {
        self.init(
            storeID: storeID,
            revision: revision,
            floor: revision,
            postRevisions: [:],
            tombstones: [:],
            writes: [:],
            limit: limit
        )
    }

    /// A history as a file recorded it; the caller checks that it is consistent (see ``isConsistent(withPostIds:)``).
    package init(
        storeID: String,
        revision: Int,
        floor: Int,
        postRevisions: [Int: Int],
        tombstones: [Int: Int],
        writes: [Int: WriteRecord],
        limit: Int
    ) {
        self.storeID = storeID
        self.revision = revision
        self.floor = floor
        self.postRevisions = postRevisions
        self.tombstones = tombstones
        self.writes = writes
        self.limit = limit
    }

    /// Whether the history agrees with itself and with the posts it describes: revisions in order, each post
    /// revision and tombstone past the floor and not past the revision, no tombstone for a held post, no post
    /// revision for a missing one.
    package func isConsistent(withPostIds isHeld: (Int) -> Bool) -> Bool {
        let recorded = floor + 1...max(revision, floor + 1)
        return 0 <= floor && floor <= revision && limit >= 1
            && postRevisions.allSatisfy { isHeld($0.key) && recorded.contains($0.value) }
            && tombstones.allSatisfy { !isHeld($0.key) && recorded.contains($0.value) }
            && writes.allSatisfy { recorded.contains($0.key) && $0.value.upperBound < $0.key }
    }

    /// The token of the store's state now.
    package var token: ChangeToken { ChangeToken(storeID: storeID, revision: revision) }

    // MARK: - Recording a write

    /// Records one write's changed and deleted posts as the next revision; a write that changed nothing is not
    /// recorded.
    mutating func record(written: some Sequence<Int>, deleted: some Sequence<Int>) {
        let next = revision + 1
        var overwritten = OverwrittenRevisions()
        var changed = false
        for id in written {
            overwritten.add(postRevisions.updateValue(next, forKey: id) ?? tombstones.removeValue(forKey: id))
            changed = true
        }
        for id in deleted {
            overwritten.add(postRevisions.removeValue(forKey: id))
            tombstones[id] = next
            changed = true
        }
        guard changed else { return }
        revision = next
        writes[next] = overwritten.range
        if let floor = Self.compactedFloor(revision: revision, floor: floor, limit: limit) { compact(to: floor) }
    }

    /// The floor a history moves up to after a write, when it is time to compact: once it reaches an eighth past
    /// its limit, so that a write rarely pays for it.
    package static func compactedFloor(revision: Int, floor: Int, limit: Int) -> Int? {
        revision - floor > limit + limit / 8 ? revision - limit : nil
    }

    /// Sets the limit, and drops at once what lies beyond it.
    ///
    /// - Throws: `invalidArgument` for a limit below 1.
    package mutating func setLimit(_ writes: Int) throws(PostStoreError) {
        try Self.validate(historyLimit: writes)
        limit = writes
        if revision - floor > writes { compact(to: revision - writes) }
    }

    /// Refuses a history limit below 1.
    package static func validate(historyLimit writes: Int) throws(PostStoreError) {
        guard writes >= 1 else {
            throw PostStoreError(.invalidArgument, "A change history limit must be 1 write or more; it was \(writes).")
        }
    }

    /// How far back the history reaches, and its limit.
    package var summary: ChangeHistorySummary {
        ChangeHistorySummary(oldest: ChangeToken(storeID: storeID, revision: floor), newest: token, limit: limit)
    }

    /// Forgets every post: the store was emptied. Every earlier token must refetch.
    mutating func recordRemovingAll(changedPosts: Bool) {
        if changedPosts { revision += 1 }
        floor = revision
        postRevisions = [:]
        tombstones = [:]
        writes = [:]
    }

    private mutating func compact(to newFloor: Int) {
        floor = newFloor
        postRevisions = postRevisions.filter { $0.value > newFloor }
        tombstones = tombstones.filter { $0.value > newFloor }
        writes = writes.filter { $0.key > newFloor }
    }

    // MARK: - Answering

    /// The changes since `token` (every post when `nil`), from these posts.
    ///
    /// - Throws: `mustRefetch` for a token this history cannot answer, `invalidArgument` for a limit below 1.
    func changes(
        since token: ChangeToken?,
        limit: Int,
        posts: PostTable
    ) throws(PostStoreError) -> PostChanges {
        try Self.validate(limit: limit)
        guard let token else {
            return PostChanges(
                posts: posts.postsInIdOrder(),
                deletedIds: [],
                next: self.token,
                isCaughtUp: true
            )
        }
        try Self.check(token, storeID: storeID, floor: floor, head: revision)
        var changes: [(revision: Int, id: Int, isDeletion: Bool)] = []
        for (id, version) in postRevisions where version > token.revision { changes.append((version, id, false)) }
        for (id, version) in tombstones where version > token.revision { changes.append((version, id, true)) }
        changes.sort { $0.revision < $1.revision }
        let end = ChangePageEnd.find(
            since: token.revision,
            head: revision,
            limit: limit,
            revisionOfChange: { n in n <= changes.count ? changes[n - 1].revision : nil },
            latestOverwrite: { since, end in
                writes.filter { $0.key > end && $0.value.overlaps(since + 1...end) }.keys.max()
            }
        )
        let answered = changes.prefix { $0.revision <= end }
        return PostChanges(
            posts: answered.filter { !$0.isDeletion }.map { posts[$0.id]! }.sorted { $0.id < $1.id },
            deletedIds: answered.filter(\.isDeletion).map(\.id).sorted(),
            next: ChangeToken(storeID: storeID, revision: end),
            isCaughtUp: end == revision
        )
    }

    /// Refuses a limit below 1.
    package static func validate(limit: Int) throws(PostStoreError) {
        guard limit >= 1 else {
            throw PostStoreError(.invalidArgument, "A changes limit must be 1 or more; it was \(limit).")
        }
    }

    /// Refuses a token that a store with this identity, floor and head cannot answer, saying why.
    ///
    /// - Throws: `mustRefetch`.
    package static func check(
        _ token: ChangeToken,
        storeID: String,
        floor: Int,
        head: Int
    ) throws(PostStoreError) {
        let reason: String
        if token.storeID != storeID {
            reason = "it comes from another store, or from one that was deleted and made again at the same place"
        } else if token.revision > head {
            reason =
                "it is ahead of the store (revision \(token.revision) of \(head)), as when the store was restored "
                + "from an older copy"
        } else if token.revision < floor {
            reason = "it is older than the store's change history, which begins at revision \(floor)"
        } else {
            return
        }
        throw PostStoreError(
            .mustRefetch,
            "The changes since token \(token) cannot be told: \(reason). Fetch every post again."
        )
    }
}
