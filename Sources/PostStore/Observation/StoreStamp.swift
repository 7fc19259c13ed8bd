/// Where a store stands, as a ``ChangeWatcher`` reads it: its change token, which moves with each write that changes
/// posts, and its probe's commit mark, which moves with every commit.
package struct StoreStamp: Sendable, Equatable {
    /// The store's token.
    package var token: ChangeToken
    /// The probe's mark (``CommitProbe/commitMark()``).
    package var mark: Int

    /// - Parameters:
    ///   - token: The store's token.
    ///   - mark: The probe's mark.
    package init(token: ChangeToken, mark: Int) {
        self.token = token
        self.mark = mark
    }
}
