package import PostStore

/// What a list page shows that changes with the store: the window's posts and how many the list selects, the
/// store's post count and its last sync.
///
/// A list page's script follows it at ``PostAPI/liveFolder`` followed by the list's address, as Server-Sent Events
/// shaped like the list's own (``EventStream``): an event whenever any of it changes, even when the window's posts
/// do not (a sync that adds posts past the page), whose data is the window's posts, so that the script can say
/// which of them changed.
package struct ListPageState: Sendable, Equatable {
    /// The window's posts, how many the list selects, and the store's revision.
    package let page: PostPage
    /// How many posts the store holds.
    let storeCount: Int
    /// The store's most recent sync, if any.
    let lastSync: SyncState?

    /// Creates the value from its parts.
    package init(page: PostPage, storeCount: Int, lastSync: SyncState?) {
        self.page = page
        self.storeCount = storeCount
        self.lastSync = lastSync
    }

    package static func == (lhs: ListPageState, rhs: ListPageState) -> Bool {
        lhs.page.posts == rhs.page.posts && lhs.page.total == rhs.page.total && lhs.storeCount == rhs.storeCount
            && lhs.lastSync == rhs.lastSync
    }
}
