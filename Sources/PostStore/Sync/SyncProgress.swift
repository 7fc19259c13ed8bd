/// One step of a sync, reported as it happens, for example to draw a progress bar.
public enum SyncProgress: Sendable, Hashable {
    /// A page of posts arrived.
    ///
    /// - Parameters:
    ///   - page: The page's number, from 1.
    ///   - posts: How many posts the page held.
    ///   - fetchedSoFar: How many posts arrived so far, this page included.
    ///   - expectedTotal: How many posts the source says it holds (`X-Total-Count`), if it says.
    case pageFetched(page: Int, posts: Int, fetchedSoFar: Int, expectedTotal: Int?)

    /// A request failed and will be tried again.
    ///
    /// - Parameters:
    ///   - attempt: The number of the attempt that failed, from 1.
    ///   - delay: How long the service waits before the next attempt.
    ///   - reason: What went wrong, for a person.
    case retrying(attempt: Int, delay: Duration, reason: String)

    /// Every post the source sent has been read and compared with the store; deletions (with prune) and the
    /// commit follow. The store reads a sync's posts while it writes them, so this comes once they are all in.
    ///
    /// - Parameter posts: How many posts the source sent.
    case applying(posts: Int)

    /// The sync finished; its report follows.
    ///
    /// - Parameter summary: What the sync did (or, in a dry run, would do) to the store.
    case applied(WriteSummary)
}
