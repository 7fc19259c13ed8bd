/// A store that counts its writes and keeps a history of them for the changes feed: every engine of this package.
///
/// The history reaches back at least ``ChangeHistorySummary/limit`` writes that changed posts (1,000,000 unless set
/// otherwise). Older tombstones and write records are dropped as writes go on, and a token from before what is kept
/// must refetch (see ``PostStoreProtocol/changes(since:limit:)``).
///
/// For example:
///
/// ```swift
/// if let store = store as? any ChangeHistoryKeeping {
///     try await store.setChangeHistoryLimit(10_000)
///     print(try await store.changeHistory().oldest)  // the oldest token it answers
/// }
/// ```
public protocol ChangeHistoryKeeping: PostStoreProtocol {
    /// Returns how far back the history reaches now, and its limit.
    ///
    /// - Returns: The oldest and newest token the store answers, and the limit.
    /// - Throws: ``PostStoreError``.
    func changeHistory() async throws -> ChangeHistorySummary

    /// Sets how many writes back the history reaches at least, for every process that opens the store, and drops
    /// what lies beyond it now.
    ///
    /// - Parameter writes: 1 or more.
    /// - Throws: ``PostStoreError``: `invalidArgument` for a limit below 1; the store's own errors.
    func setChangeHistoryLimit(_ writes: Int) async throws
}

/// How far back a store's change history reaches (see ``ChangeHistoryKeeping``).
public struct ChangeHistorySummary: Sendable, Hashable {
    /// The oldest token the store answers: the changes since any earlier one must be fetched again whole.
    public var oldest: ChangeToken
    /// The store's token now.
    public var newest: ChangeToken
    /// How many writes back the history reaches at least.
    public var limit: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - oldest: The oldest token the store answers.
    ///   - newest: The store's token now.
    ///   - limit: How many writes back the history reaches at least.
    public init(oldest: ChangeToken, newest: ChangeToken, limit: Int) {
        self.oldest = oldest
        self.newest = newest
        self.limit = limit
    }
}
