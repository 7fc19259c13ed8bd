/// One step of a sync, reported as it happens, for example to draw a progress bar.
///
/// The closure that receives them is called in the sync's own task, in order, and never after the sync returned or
/// threw; it should return quickly, as the sync waits for it. The guide's "Syncing" article shows how to turn them into
/// an `AsyncSequence`.
public enum SyncProgress: Sendable, Hashable {
    /// A phase of the sync advanced or finished: downloading or reading the posts, writing them, building the
    /// search index, pruning.
    case working(WorkProgress)

    /// A request failed and will be tried again.
    ///
    /// - Parameters:
    ///   - attempt: The number of the attempt that failed, from 1.
    ///   - delay: How long the service waits before the next attempt.
    ///   - reason: What went wrong, for a person.
    case retrying(attempt: Int, delay: Duration, reason: String)

    /// The sync finished; its report follows.
    ///
    /// - Parameter summary: What the sync did (or, in a dry run, would do) to the store.
    case applied(WriteSummary)
}
