/// Passes another reader's batches on and reports a phase's progress after each: the posts so far and, when the
/// reader reads bytes, the bytes so far; a finished update when the reader ends. How a data service's stream reports
/// its reading to a progress display.
struct ReportingPostReader: PostReader {
    private var base: any PostReader
    private var progress: WorkProgress
    private let bytesRead: () -> Int?
    private let report: (WorkProgress) -> Void
    private var ended = false

    /// - Parameters:
    ///   - base: The reader to pass on.
    ///   - phase: The phase it reports, with its totals when they are known.
    ///   - bytesRead: How many bytes the reader has read so far, if it reads bytes.
    ///   - report: Called after each batch and at the end.
    init(
        _ base: any PostReader,
        phase: WorkProgress,
        bytesRead: @escaping () -> Int? = { nil },
        report: @escaping (WorkProgress) -> Void
    ) {
        self.base = base
        self.progress = phase
        self.bytesRead = bytesRead
        self.report = report
        report(phase)
    }

    mutating func nextBatch() throws -> [Post]? {
        guard let batch = try base.nextBatch() else {
            if !ended {
                ended = true
                progress.bytes = bytesRead() ?? progress.bytes
                report(progress.finished)
            }
            return nil
        }
        progress.completed += batch.count
        progress.bytes = bytesRead() ?? progress.bytes
        report(progress)
        return batch
    }
}

extension PostStream {
    /// A stream over posts in memory that reports a reading phase as its reader is read: a store that writes as it
    /// reads (SQLite) writes during that phase, so the posts a download or a copy holds are not stored unseen.
    ///
    /// - Parameters:
    ///   - posts: The posts.
    ///   - report: Called with the reading phase's updates, one a batch.
    package static func reporting(
        _ posts: [Post],
        report: @escaping @Sendable (WorkProgress) -> Void
    ) -> PostStream {
        PostStream {
            ReportingPostReader(
                ArrayPostReader(posts),
                phase: WorkProgress(phase: .reading, completed: 0, total: posts.count),
                report: report
            )
        }
    }
}
