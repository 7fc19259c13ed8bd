package import PostStore

/// A store whose calls never block the caller's thread: its blocking work runs on executors of its own
/// (``DispatchQueueExecutor``), and the caller suspends meanwhile.
///
/// `PostServer` handles such a store's requests on their connections' event loops, as it does a store on a database
/// server: a request then switches threads only for the store's own work, where on Swift's pool it would also switch
/// to the pool and back. A store whose calls run on the caller's executor (`InMemoryPostStore` scans its posts in
/// the call) is not one: it would hold up every connection of the loop.
package protocol NonblockingStore: PostStoreProtocol {}
