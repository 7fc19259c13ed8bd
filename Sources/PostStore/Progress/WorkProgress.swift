/// Where one phase of a long piece of work stands — a sync, a copy, a rebuild — for a progress display.
///
/// Work reports a phase at a time: a phase's updates carry counts that only grow (but for the bytes of a download
/// retried after a ``SyncProgress/retrying(attempt:delay:reason:)``, counted again from that answer's start), and
/// its last update has ``isFinished`` set. The next phase's updates follow; a failure ends the work with its error
/// instead, and no update follows it. Updates come at most once per batch of posts or slice of rows (not once per
/// post), so a display may draw each one or, as the `poststore` command does, redraw a line at most ten times a
/// second.
///
/// For example, a line of text for each update:
///
/// ```swift
/// let report = try await service.sync { event in
///     guard case .working(let progress) = event else { return }
///     let total = progress.total.map { " of \($0)" } ?? ""
///     print("\(progress.phase): \(progress.completed)\(total)\(progress.isFinished ? ", done" : "")")
/// }
/// ```
public struct WorkProgress: Sendable, Hashable {
    /// A step of the work, in the order the work takes them.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        /// Fetching an http(s) source's posts, page by page; ``WorkProgress/completed`` counts posts,
        /// ``WorkProgress/pages`` pages.
        case downloading
        /// Reading and checking the posts of a file, of standard input or of another store;
        /// ``WorkProgress/completed`` counts posts and ``WorkProgress/bytes`` the bytes read, when there are any.
        /// A store that writes posts as it reads them (SQLite, PostgreSQL) writes them in this phase.
        case reading
        /// Writing posts that were read before into the store; ``WorkProgress/completed`` counts posts.
        case writing
        /// Building the search index; ``WorkProgress/completed`` counts the rows indexed.
        case indexing
        /// Deleting the posts the source no longer has; ``WorkProgress/completed`` counts posts.
        case pruning
    }

    /// The phase.
    public var phase: Phase
    /// How many posts (or rows) the phase has done.
    public var completed: Int
    /// How many the phase will do, when that is known.
    public var total: Int?
    /// How many pages the phase has fetched, when it fetches pages.
    public var pages: Int?
    /// How many bytes the phase has read, when it reads bytes.
    public var bytes: Int?
    /// How many bytes the phase will read, when that is known (a file's size, a `Content-Length`).
    public var totalBytes: Int?
    /// Whether this is the phase's last update.
    public var isFinished: Bool

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - phase: The phase.
    ///   - completed: How many posts (or rows) the phase has done.
    ///   - total: How many it will do, if known.
    ///   - pages: How many pages it has fetched, if it fetches pages.
    ///   - bytes: How many bytes it has read, if it reads bytes.
    ///   - totalBytes: How many bytes it will read, if known.
    ///   - isFinished: Whether this is the phase's last update.
    public init(
        phase: Phase,
        completed: Int,
        total: Int? = nil,
        pages: Int? = nil,
        bytes: Int? = nil,
        totalBytes: Int? = nil,
        isFinished: Bool = false
    ) {
        self.phase = phase
        self.completed = completed
        self.total = total
        self.pages = pages
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.isFinished = isFinished
    }

    /// The share of the phase done, from 0 to 1, when its total (of posts, else of bytes) is known.
    public var fraction: Double? {
        if let total { return total == 0 ? 1 : min(1, Double(completed) / Double(total)) }
        if let bytes, let totalBytes { return totalBytes == 0 ? 1 : min(1, Double(bytes) / Double(totalBytes)) }
        return nil
    }

    /// The same update, marked as the phase's last, with its total set to what it did when none was known.
    public var finished: WorkProgress {
        var last = self
        last.isFinished = true
        if last.total == nil { last.total = completed }
        if last.totalBytes == nil { last.totalBytes = bytes }
        return last
    }
}
