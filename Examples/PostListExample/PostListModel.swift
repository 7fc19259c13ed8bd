public import PostStore
public import PostStoreContainer

/// The model of a screen that lists posts, searches them and refreshes them from a source: an app-style feature
/// written against PostStore's protocols, the way the guide's "Embedding and Testing" article suggests.
///
/// It receives its collaborators through its initializer — a store and a sync service — and never creates live
/// ones, so its tests run on an in-memory store and stubs (see `Tests/PostListExampleTests`). An app builds it from
/// its composition root, ``PostStoreDependencies/live(_:logger:)``, or from a ``DependencyStore`` with
/// ``init(resolvingFrom:)``.
@MainActor
public final class PostListModel {
    /// What the screen shows besides the posts.
    public enum Status: Equatable, Sendable {
        /// Nothing loaded yet.
        case idle
        /// The posts are up to date with the store.
        case loaded
        /// The last load or refresh failed; the message is for the person looking at the screen.
        case failed(String)
    }

    /// The posts to show: those matching ``searchText``, in id order.
    public private(set) var posts: [Post] = []

    /// What the screen shows besides the posts.
    public private(set) var status: Status = .idle

    /// What the last successful refresh did.
    public private(set) var lastRefresh: SyncReport?

    /// The text the posts are filtered by; empty shows every post.
    public private(set) var searchText = ""

    private let store: any PostStoreProtocol
    private let sync: SyncService

    /// Creates the model.
    ///
    /// - Parameters:
    ///   - store: Where the posts are read from.
    ///   - sync: What brings the store up to date on refresh.
    public init(store: any PostStoreProtocol, sync: SyncService) {
        self.store = store
        self.sync = sync
    }

    /// Creates the model from a container's `any PostStoreProtocol` and `SyncService`.
    ///
    /// - Parameter container: The container; by default the current task's.
    /// - Throws: ``PostStoreError/Code/missingDependency`` when either is not registered.
    public convenience init(resolvingFrom container: DependencyStore = .current) throws {
        self.init(store: try container.resolve(), sync: try container.resolve())
    }

    /// Reads the posts matching the search text from the store.
    public func load() async {
        let search = searchText
        do {
            let found = try await store.query(PostQuery(search: search))
            // A newer search may have started while this one waited; its answer is the one to show.
            guard search == searchText else { return }
            posts = found
            status = .loaded
        } catch {
            guard search == searchText else { return }
            status = .failed(Self.message(for: error))
        }
    }

    /// Shows only the posts matching `text` (every word, in the title or the body, ignoring case).
    ///
    /// - Parameter text: The search text.
    public func search(_ text: String) async {
        searchText = text
        await load()
    }

    /// Syncs the store from the source, then reloads. On failure the posts shown stay as they were.
    public func refresh() async {
        do {
            lastRefresh = try await sync.sync()
        } catch {
            status = .failed(Self.message(for: error))
            return
        }
        await load()
    }

    private static func message(for error: any Error) -> String {
        (error as? PostStoreError)?.message ?? "Something went wrong: \(error)"
    }
}
