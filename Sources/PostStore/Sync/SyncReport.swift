/// What a sync did — or, in a dry run, would do.
///
/// `Codable`, so a command-line tool can print it as JSON; the duration is encoded as `durationSeconds`.
public struct SyncReport: Sendable, Hashable, Codable {
    /// The source, as the data service names it.
    public var source: String
    /// How many posts the source sent (0 when ``notModified``); for a sync by changes, the changes it sent: posts
    /// and deletions.
    public var fetched: Int
    /// Posts that were new.
    public var inserted: Int
    /// Posts that had changed and were replaced.
    public var updated: Int
    /// Posts that were already up to date and were not written.
    public var unchanged: Int
    /// Posts deleted because the source no longer has them (prune only).
    public var deleted: Int
    /// Whether the source answered `304 Not Modified`, so nothing was downloaded or compared.
    public var notModified: Bool
    /// How many requests for posts the fetch took: 1 for a whole list, one per page (an empty last page included).
    public var pages: Int
    /// Whether this was a dry run that wrote nothing.
    public var dryRun: Bool
    /// How long the sync took, from the first request to the commit (for a follower, from the arrival of the answer
    /// its source held until a change came).
    public var duration: Duration
    /// Whether the sync asked the source's changes feed for what changed since the last sync alone.
    public var byChanges = false
    /// How many posts the source's changes feed said were deleted that the store kept: a sync by changes without
    /// ``SyncOptions/prune``.
    public var deletionsKept = 0
    /// Why the source could not tell the changes since the last sync, when the sync fell back to fetching every
    /// post; for a person.
    public var refetchReason: String?
    /// The token of the source's state the store now stands at, for a source with a changes feed.
    public var changeToken: ChangeToken?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - source: The source.
    ///   - fetched: How many posts the source sent.
    ///   - summary: What the write did.
    ///   - notModified: Whether the source answered `304 Not Modified`.
    ///   - pages: How many pages the fetch took.
    ///   - dryRun: Whether nothing was written.
    ///   - duration: How long the sync took.
    public init(
        source: String,
        fetched: Int,
        summary: WriteSummary,
        notModified: Bool = false,
        pages: Int,
        dryRun: Bool = false,
        duration: Duration
    ) {
        self.source = source
        self.fetched = fetched
        self.inserted = summary.inserted
        self.updated = summary.updated
        self.unchanged = summary.unchanged
        self.deleted = summary.deleted
        self.notModified = notModified
        self.pages = pages
        self.dryRun = dryRun
        self.duration = duration
    }

    /// Two reports are equal when every field is equal, the source byte for byte.
    ///
    /// A source is a name a store keeps exactly: Swift's `String ==` would take two that differ only in Unicode
    /// normalization (`"café.json"` written precomposed and decomposed, two files on Linux) for one.
    public static func == (lhs: SyncReport, rhs: SyncReport) -> Bool {
        lhs.source.utf8.elementsEqual(rhs.source.utf8) && lhs.fetched == rhs.fetched && lhs.summary == rhs.summary
            && lhs.notModified == rhs.notModified && lhs.pages == rhs.pages && lhs.dryRun == rhs.dryRun
            && lhs.duration == rhs.duration && lhs.byChanges == rhs.byChanges && lhs.deletionsKept == rhs.deletionsKept
            && lhs.refetchReason == rhs.refetchReason && lhs.changeToken == rhs.changeToken
    }

    /// Hashes the report, the source byte for byte, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(source.utf8))
        hasher.combine(fetched)
        hasher.combine(summary)
        hasher.combine(notModified)
        hasher.combine(pages)
        hasher.combine(dryRun)
        hasher.combine(duration)
        hasher.combine(byChanges)
        hasher.combine(deletionsKept)
        hasher.combine(refetchReason)
        hasher.combine(changeToken)
    }

    /// ``duration`` in seconds, to the millisecond: what JSON shows as `durationSeconds`.
    public var durationSeconds: Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded()) / 1000
    }

    /// What the write did, as a ``WriteSummary``.
    public var summary: WriteSummary {
        WriteSummary(inserted: inserted, updated: updated, unchanged: unchanged, deleted: deleted)
    }

    private enum CodingKeys: String, CodingKey {
        case source, fetched, inserted, updated, unchanged, deleted, notModified, pages, dryRun, durationSeconds
        case byChanges, deletionsKept, refetchReason, changeToken
    }

    /// Decodes a report written by ``encode(to:)``.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decode(String.self, forKey: .source)
        fetched = try container.decode(Int.self, forKey: .fetched)
        inserted = try container.decode(Int.self, forKey: .inserted)
        updated = try container.decode(Int.self, forKey: .updated)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        deleted = try container.decode(Int.self, forKey: .deleted)
        notModified = try container.decode(Bool.self, forKey: .notModified)
        pages = try container.decode(Int.self, forKey: .pages)
        dryRun = try container.decode(Bool.self, forKey: .dryRun)
        let seconds = try container.decode(Double.self, forKey: .durationSeconds)
        guard seconds.isFinite, abs(seconds) < 1e12 else {
            throw DecodingError.dataCorruptedError(
                forKey: .durationSeconds,
                in: container,
                debugDescription: "The duration must be a finite number of seconds below 10^12, not \(seconds)."
            )
        }
        duration = .milliseconds(Int64((seconds * 1000).rounded()))
        // Absent from the reports of builds before the changes feed.
        byChanges = try container.decodeIfPresent(Bool.self, forKey: .byChanges) ?? false
        deletionsKept = try container.decodeIfPresent(Int.self, forKey: .deletionsKept) ?? 0
        refetchReason = try container.decodeIfPresent(String.self, forKey: .refetchReason)
        changeToken = try container.decodeIfPresent(ChangeToken.self, forKey: .changeToken)
    }

    /// Encodes the report, with the duration as `durationSeconds` (to the millisecond).
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(fetched, forKey: .fetched)
        try container.encode(inserted, forKey: .inserted)
        try container.encode(updated, forKey: .updated)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(notModified, forKey: .notModified)
        try container.encode(pages, forKey: .pages)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(byChanges, forKey: .byChanges)
        try container.encode(deletionsKept, forKey: .deletionsKept)
        try container.encode(refetchReason, forKey: .refetchReason)
        try container.encode(changeToken, forKey: .changeToken)
    }
}
