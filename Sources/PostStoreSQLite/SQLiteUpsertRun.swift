import PostStore
import PostStoreCSQLite

/// The upserts of one write, counted post by post and, when writing, made: the change set's own, then the
/// stream's, batch by batch.
///
/// Into an empty store (a bulk load) posts are inserted without looking up each id first; a repeated id is then
/// found by the table's primary key, and named as the check after the stream would name it.
struct SQLiteUpsertRun {
    private let writer: SQLitePostWriter
    private let deletions: Set<Int>
    private let isBulkLoad: Bool
    private let writing: Bool

    /// How many posts were (or would be) inserted, updated and left unchanged so far.
    private(set) var summary = WriteSummary()

    /// The ids upserted so far, in order: checked for repeats after the stream, since sorting once costs less
    /// than a hash-table lookup per post.
    private(set) var ids: [Int] = []

    /// The revisions of the versions the upserts overwrote (replaced posts, and tombstones of inserted ids).
    private(set) var overwritten = OverwrittenRevisions()

    /// - Parameters:
    ///   - writer: The writer, prepared in the caller's transaction.
    ///   - changes: The change set: its deletions may not be upserted.
    ///   - isBulkLoad: Whether the store held no post when the transaction began.
    ///   - writing: `false` for a dry run: only the outcome is worked out.
    init(writer: SQLitePostWriter, changes: PostChangeSet, isBulkLoad: Bool, writing: Bool) {
        self.writer = writer
        self.deletions = changes.deletions
        self.isBulkLoad = isBulkLoad
        self.writing = writing
        ids.reserveCapacity(changes.upserts.count)
    }

    /// Upserts (or, when not writing, counts) a batch of posts.
    ///
    /// - Throws: `constraintViolation` for a post that is also deleted, or whose id a bulk load already inserted;
    ///   `SQLiteError` from the writer.
    mutating func upsert(_ posts: [Post]) throws {
        for post in posts {
            ids.append(post.id)
            if deletions.contains(post.id) {
                throw PostStoreError(
                    .constraintViolation,
                    "Post \(post.id) is both upserted (at index \(ids.count - 1)) and deleted in one batch."
                )
            }
            if isBulkLoad {
                try insertIntoEmptyStore(post)
            } else {
                switch try writer.upsert(post, writing: writing) {
                case .inserted(let tombstone):
                    summary.inserted += 1
                    overwritten.add(tombstone)
                case .updated(let revision):
                    summary.updated += 1
                    overwritten.add(revision)
                case .unchanged:
                    summary.unchanged += 1
                }
            }
        }
    }

    /// Inserts a post into a store that was empty, without looking its id up first.
    private mutating func insertIntoEmptyStore(_ post: Post) throws {
        do {
            if writing { overwritten.add(try writer.insert(post)) }
        } catch let error as SQLiteError where error.primaryCode == SQLITE_CONSTRAINT {
            // A repeated id, found by the table before the check after the stream: name it the same way.
            _ = try ids.sortedCheckingUpsertRepeats()
            throw error
        }
        summary.inserted += 1
    }
}
