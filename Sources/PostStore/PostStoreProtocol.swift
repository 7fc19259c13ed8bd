/// A place where posts live: the one storage abstraction of PostStore.
///
/// Every engine implements it — ``InMemoryPostStore``, `JSONFilePostStore`, `SQLitePostStore` and
/// `PostgresPostStore` — and code written against `any PostStoreProtocol` runs unchanged on each. Pick one with the guide's <doc:ChoosingAnEngine>.
///
/// For example:
///
/// ```swift
/// let store: any PostStoreProtocol = InMemoryPostStore()
/// let summary = try await store.upsert([Post(userId: 1, id: 1, title: "Hello", body: "World")])
/// // summary.inserted == 1
/// let hits = try await store.query(PostQuery(search: "hello"))
/// ```
///
/// ## Implementation requirements
///
/// Every engine keeps this contract, and the `PostStoreConformance` product checks it: its `PostStoreContract.checks`
/// run on any engine that a `ContractSubject` describes, one parameterized Swift Testing test. Every engine of this
/// package runs them that way, and so does an engine written elsewhere to prove that it keeps the contract.
///
/// - **Atomic writes.** ``apply(_:)`` and everything built on it write all of the change set or nothing: a failed
///   write leaves the store exactly as it was. Once it returns, the write survives a crash of the process; how it
///   fares in a power loss is the engine's to say (SQLite in WAL mode with `synchronous = NORMAL` may lose the
///   last commits then, but never corrupts the store).
/// - **Validation first.** A change set naming an id twice is refused with
///   ``PostStoreError/Code/constraintViolation``, its message naming the id, before anything is written (see
///   ``PostChangeSet/validate()``),
///   and one that would delete more than its ``PostChangeSet/deletionLimit`` with
///   ``PostStoreError/Code/tooManyDeletions`` (the stored posts counted under the write lock).
/// - **Pruning.** With ``PostChangeSet/prune``, every stored post not upserted is deleted in the same step, chosen
///   under the write lock, so two writers never mix their sets.
/// - **Required posts.** A change set's ``PostChangeSet/requiredPosts`` are checked under the write lock before
///   anything is written: a stored post that differs from its requirement (or one there that must be absent, or
///   one gone that must be there) refuses the whole change set with ``PostStoreError/Code/postChanged``, whichever
///   process or machine wrote it.
/// - **Previews.** ``preview(_:)`` returns what ``apply(_:)`` would return, and writes nothing.
/// - **One write entry point.** An engine implements ``apply(_:)`` (it has no default, so the compiler holds every
///   engine to it) and gets the other overloads from this protocol's default implementations:
///   ``apply(_:streaming:)`` calls ``apply(_:streaming:progress:)``, whose default reads the stream and calls
///   ``apply(_:)``. The in-memory and JSON-file engines write in ``apply(_:)``; SQLite and PostgreSQL, which write
///   as they read, implement ``apply(_:streaming:progress:)`` and make ``apply(_:)`` one call of it with an empty
///   stream. ``upsert(_:)``, ``delete(ids:)`` and ``saveSyncState(_:)`` apply a change set too.
/// - **Streams.** ``apply(_:streaming:)`` and ``preview(_:streaming:)`` behave exactly as ``apply(_:)`` and
///   ``preview(_:)`` with the stream's posts appended to the change set's upserts (an id repeated across the two is
///   a `constraintViolation`); a reader that throws part-way leaves the store as it was. The default
///   implementations read the stream first; an engine may write as it reads, inside its one atomic step.
/// - **Counting.** An upserted post is `inserted` when its id is new, `updated` when the stored post differs in any
///   field (compared byte for byte, see ``Post/==(_:_:)``) and `unchanged` otherwise; an unchanged post is not
///   written. A deleted id counts as `deleted` only when the store held it.
/// - **Reads.** ``post(id:)`` returns `nil` for a missing id; ``query(_:)`` follows ``PostQuery``'s semantics
///   exactly, including its order, so every engine returns the same array for the same query and data; text is
///   returned exactly as stored (any Unicode, NUL characters included, except in an engine that cannot hold them:
///   see **Errors**).
/// - **Sync state.** One ``SyncState`` per source (sources compared byte for byte, like posts), saved atomically
///   with the posts of the same change set and returned exactly as saved (its source and `ETag` byte for byte, as
///   ``SyncState/==(_:_:)`` compares them: a state whose `ETag` differs only in Unicode normalization is a new
///   state, and saved), with one exception: a write that changes any post clears every remembered
///   ``SyncState/etag`` (before saving its own change set's state). An `ETag` describes the posts as its sync left
///   them; once they changed, a `304 Not Modified` must not stand for them.
/// - **Errors.** Only ``PostStoreError``: ``PostStoreError/Code/invalidQuery`` for a negative limit or offset,
///   ``PostStoreError/Code/storeNotFound`` when a store's file was deleted while it was open,
///   ``PostStoreError/Code/ioFailure`` and ``PostStoreError/Code/storeBusy`` for file and locking failures,
///   ``PostStoreError/Code/corruptStore`` and ``PostStoreError/Code/unsupportedVersion`` for a file this build
///   cannot read (such a file is never written over), ``PostStoreError/Code/invalidData`` for text an engine
///   cannot hold, the whole write refused (SQLite stores at most 1,000,000,000 bytes in one value; PostgreSQL's
///   text holds no NUL character), and for a store on a database server
///   ``PostStoreError/Code/storeUnavailable`` and ``PostStoreError/Code/accessDenied``. The one exception: a write
///   waiting for another process's lock throws `CancellationError` when its task is cancelled.
/// - **Concurrency.** Stores are `Sendable`; concurrent calls on one instance are safe, and every call sees a
///   consistent state: an engine may serialize them (the in-memory and file engines are actors) or run them at
///   once, each in a transaction of its own (PostgreSQL).
/// - **Observation.** ``observe(_:)``, ``observePost(id:)`` and ``observeSyncStates()`` need nothing of an engine
///   but this contract: they follow the token (``changeToken()``) and the sync states, so a write that changes no
///   post keeps the token, and every write of another instance or process is seen. The engines of this package
///   tell their observers of commits as they happen; a store of another package is read every 100 ms while
///   observed (see <doc:ObservingAStore>).
public protocol PostStoreProtocol: Sendable {
    /// Applies a change set in one atomic step.
    ///
    /// Every engine implements it: it has no default (see "Implementation requirements" above). An engine that
    /// writes as it reads implements it as ``apply(_:streaming:progress:)`` with an empty stream.
    ///
    /// - Parameter changes: Posts to upsert, ids to delete and sync state to save.
    /// - Returns: How many posts were inserted, updated, left unchanged and deleted.
    /// - Throws: ``PostStoreError``; nothing is written when it throws.
    @discardableResult
    func apply(_ changes: PostChangeSet) async throws -> WriteSummary

    /// Works out what ``apply(_:)`` would do with a change set now, and writes nothing: a dry run.
    ///
    /// - Parameter changes: The change set.
    /// - Returns: The summary ``apply(_:)`` would return if no other write came first.
    /// - Throws: ``PostStoreError``, the same codes as ``apply(_:)`` for the same reasons.
    func preview(_ changes: PostChangeSet) async throws -> WriteSummary

    /// Applies a change set whose upserts also come from a stream, read while the store writes them, in one
    /// atomic step: how ``SyncService`` writes, so a large sync need not hold every post in memory.
    ///
    /// The upserted posts are the change set's own ``PostChangeSet/upserts`` followed by the stream's. The same
    /// rules as ``apply(_:)`` hold for all of them together; a problem the stream's reader finds part-way (a bad
    /// record) is thrown and nothing is written. The default implementation calls ``apply(_:streaming:progress:)``
    /// without reporting progress (whose own default reads the whole stream into the change set and calls
    /// ``apply(_:)``); `SQLitePostStore` writes batch by batch.
    ///
    /// - Parameters:
    ///   - changes: The change set.
    ///   - upserts: More posts to upsert.
    /// - Returns: As ``apply(_:)``.
    /// - Throws: ``PostStoreError``, including what the stream's reader throws; nothing is written when it throws.
    @discardableResult
    func apply(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary

    /// Applies a change set and a stream as ``apply(_:streaming:)`` does, and reports the store's own phases of the
    /// work to a progress display: the stream's reader reports its own reading.
    ///
    /// The default implementation reads the whole stream first, then reports one ``WorkProgress/Phase/writing``
    /// phase around ``apply(_:)`` (see "Implementation requirements" above). An engine that writes as it reads
    /// implements this one, and reports only what follows
    /// the reading (such as building the search index, or pruning). Updates come in the calling task, in order,
    /// each phase ending with a finished update; none comes after the method returns or throws.
    ///
    /// - Parameters:
    ///   - changes: The change set.
    ///   - upserts: More posts to upsert.
    ///   - progress: Called with each update.
    /// - Returns: As ``apply(_:)``.
    /// - Throws: As ``apply(_:streaming:)``.
    @discardableResult
    func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary

    /// Works out what ``apply(_:streaming:)`` would do, and writes nothing: a dry run of a streamed write.
    ///
    /// - Parameters:
    ///   - changes: The change set.
    ///   - upserts: More posts to upsert.
    /// - Returns: The summary ``apply(_:streaming:)`` would return if no other write came first.
    /// - Throws: As ``apply(_:streaming:)``.
    func preview(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary

    /// Inserts new posts and replaces changed ones, in one atomic step.
    ///
    /// - Parameter posts: The posts; no id may appear twice.
    /// - Returns: How many posts were inserted, updated and left unchanged.
    /// - Throws: ``PostStoreError``, `constraintViolation` for a repeated id; nothing is written when it throws.
    @discardableResult
    func upsert(_ posts: [Post]) async throws -> WriteSummary

    /// Deletes the posts with these ids, in one atomic step; ids the store does not hold are skipped.
    ///
    /// - Parameter ids: The ids to delete.
    /// - Returns: How many posts were deleted.
    /// - Throws: ``PostStoreError``.
    @discardableResult
    func delete(ids: Set<Int>) async throws -> Int

    /// Returns the post with this id.
    ///
    /// - Parameter id: The id.
    /// - Returns: The post, or `nil` when the store holds no post with this id.
    /// - Throws: ``PostStoreError``.
    func post(id: Int) async throws -> Post?

    /// Returns the posts a query selects, in its order.
    ///
    /// - Parameter query: Filters, search, order and window; see ``PostQuery``.
    /// - Returns: The matching posts.
    /// - Throws: ``PostStoreError``, `invalidQuery` for a negative limit or offset.
    func query(_ query: PostQuery) async throws -> [Post]

    /// Returns how many posts the store holds.
    ///
    /// - Returns: The number of posts.
    /// - Throws: ``PostStoreError``.
    func count() async throws -> Int

    /// Deletes every post and every sync state, in one atomic step: the store is then like a new one.
    ///
    /// Sync states go too, so that a later sync does not skip a download because of a remembered `ETag`.
    ///
    /// - Throws: ``PostStoreError``.
    func removeAll() async throws

    /// Returns the sync state saved for a source.
    ///
    /// - Parameter source: The source, exactly as it was saved.
    /// - Returns: The state, or `nil` when the store has none for this source.
    /// - Throws: ``PostStoreError``.
    func syncState(for source: String) async throws -> SyncState?

    /// Returns every saved sync state, the most recent first (ties by source).
    ///
    /// - Returns: The states, one per source.
    /// - Throws: ``PostStoreError``.
    func syncStates() async throws -> [SyncState]

    /// Returns the token of the store's state now: the changes since it are those of later writes.
    ///
    /// It changes with every write that changes a post (in this process or another) and with nothing else. The
    /// default implementation reads every post and makes a token from their digest; every engine of this package
    /// keeps a count of its writes instead (see <doc:FollowingChanges>).
    ///
    /// - Returns: The token.
    /// - Throws: ``PostStoreError``.
    func changeToken() async throws -> ChangeToken

    /// Returns the changes since a token: the posts written and the ids deleted by later writes, and the token of
    /// the state they lead to, read from one state of the store.
    ///
    /// An answer holds whole writes, and stops after the write that brings it to `limit` changes unless stopping
    /// there could lead a copy to a state the store never held (see ``PostChanges``); ask again from its
    /// ``PostChanges/next`` token until it is ``PostChanges/isCaughtUp``. Without a token, the answer is every post,
    /// whatever the limit. The default implementation, for a store that counts no writes, answers a token of its
    /// own current state with no changes and any other with `mustRefetch`.
    ///
    /// For example:
    ///
    /// ```swift
    /// var changes = try await source.changes(since: nil)
    /// try await copy.apply(PostChangeSet(changes: changes))
    /// // … later …
    /// changes = try await source.changes(since: changes.next)
    /// try await copy.apply(PostChangeSet(changes: changes))
    /// ```
    ///
    /// - Parameters:
    ///   - token: Where the copy stands, or `nil` for a copy that holds nothing yet.
    ///   - limit: How many posts and deletions to answer at most (more when one write holds more), 1 or more.
    /// - Returns: The changes.
    /// - Throws: ``PostStoreError``: ``PostStoreError/Code/mustRefetch`` for a token of another store (or of one
    ///   made again at the same place), from before the store's change history, or from ahead of it;
    ///   `invalidArgument` for a limit below 1; the store's own errors.
    func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges
}

extension PostStoreProtocol {
    @discardableResult
    public func apply(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary {
        try await apply(changes, streaming: upserts) { _ in }
    }

    public func preview(_ changes: PostChangeSet, streaming upserts: PostStream) async throws -> WriteSummary {
        try await preview(await changes.appendingUpserts(from: upserts))
    }

    @discardableResult
    public func apply(
        _ changes: PostChangeSet,
        streaming upserts: PostStream,
        progress: @escaping @Sendable (WorkProgress) -> Void
    ) async throws -> WriteSummary {
        let all = try await changes.appendingUpserts(from: upserts)
        let writing = WorkProgress(phase: .writing, completed: 0, total: all.upserts.count)
        progress(writing)
        let summary = try await apply(all)
        var written = writing
        written.completed = all.upserts.count
        progress(written.finished)
        return summary
    }

    /// Inserts new posts and replaces changed ones by applying a change set of upserts.
    ///
    /// - Parameter posts: The posts; no id may appear twice.
    /// - Returns: How many posts were inserted, updated and left unchanged.
    /// - Throws: ``PostStoreError``; nothing is written when it throws.
    @discardableResult
    public func upsert(_ posts: [Post]) async throws -> WriteSummary {
        try await apply(PostChangeSet(upserts: posts))
    }

    /// Deletes posts by applying a change set of deletions.
    ///
    /// - Parameter ids: The ids to delete; ids the store does not hold are skipped.
    /// - Returns: How many posts were deleted.
    /// - Throws: ``PostStoreError``.
    @discardableResult
    public func delete(ids: Set<Int>) async throws -> Int {
        try await apply(PostChangeSet(deletions: ids)).deleted
    }

    /// Returns the changes since a token, at most 10,000 at a time (see ``changes(since:limit:)``).
    ///
    /// - Parameter token: Where the copy stands, or `nil` for a copy that holds nothing yet.
    /// - Returns: The changes.
    /// - Throws: As ``changes(since:limit:)``.
    public func changes(since token: ChangeToken?) async throws -> PostChanges {
        try await changes(since: token, limit: PostChanges.defaultLimit)
    }

    public func changeToken() async throws -> ChangeToken {
        Self.digestToken(of: try await query(PostQuery()))
    }

    public func changes(since token: ChangeToken?, limit: Int) async throws -> PostChanges {
        try ChangeHistory.validate(limit: limit)
        let posts = try await query(PostQuery())
        let now = Self.digestToken(of: posts)
        guard let token else {
            return PostChanges(posts: posts.sorted { $0.id < $1.id }, deletedIds: [], next: now, isCaughtUp: true)
        }
        try ChangeHistory.check(token, storeID: now.storeID, floor: 0, head: 0)
        return PostChanges(posts: [], deletedIds: [], next: now, isCaughtUp: true)
    }

    /// The token of a store that counts no writes: a digest of its posts, revision 0.
    private static func digestToken(of posts: [Post]) -> ChangeToken {
        var contents = StoreContents()
        contents.posts = PostTable(posts)
        return ChangeToken(storeID: contents.postsDigest, revision: 0)
    }

    /// Saves a sync state, replacing any earlier state of the same source.
    ///
    /// - Parameter state: The state to save.
    /// - Throws: ``PostStoreError``.
    public func saveSyncState(_ state: SyncState) async throws {
        _ = try await apply(PostChangeSet(syncState: state))
    }
}
