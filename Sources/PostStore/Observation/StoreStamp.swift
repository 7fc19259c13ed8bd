/// Where a store stands, as a ``ChangeWatcher`` reads it: its change token, which moves with each write that changes
/// posts, and its probe's commit mark, which moves with every commit.
struct StoreStamp: Sendable, Equatable {
    /// The store's token.
    var token: ChangeToken
    /// The probe's mark (``CommitProbe/commitMark()``).
    var mark: Int

    /// - Parameters:
    ///   - token: The store's token.
    ///   - mark: The probe's mark.
    init(token: ChangeToken, mark: Int) {
        self.token = token
        self.mark = mark
    }
}
