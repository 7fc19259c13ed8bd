public import Foundation
public import Observation
public import PostStore
public import PostStoreContainer

/// The model of a screen that lists posts, searches them and refreshes them from a source: an app-style feature
/// written against PostStore's protocols, the way the guide's "Embedding and Testing" article suggests.
///
/// It receives its collaborators through its initializer — a store and a sync service — and never creates live
/// ones, so its tests run on an in-memory store and stubs (see `Tests/PostListExampleTests`). An app builds it from
/// its composition root, ``PostStoreDependencies/live(_:logger:)``, or from a ``DependencyStore`` with
/// ``init(resolvingFrom:)``.
///
/// Once started, it observes the store (``PostStoreProtocol/observe(_:)`` and
/// ``PostStoreProtocol/observeSyncStates()``): whoever writes the store — its own refresh, a sync in the
/// background, another process — the posts and the "last synced" time it shows stay current, with no reload. It
/// is `@Observable`, so a SwiftUI view redraws when they change:
///
/// ```swift
/// List(model.posts) { post in Text(post.title) }
///     .task { model.start() }
///     .onDisappear { model.stop() }
/// ```
@MainActor
@Observable
public final class PostListModel {
    /// What the screen shows besides the posts.
    public enum Status: Equatable, Sendable {
        /// Nothing loaded yet.
        case idle
        /// The posts are up to date with the store.
        case loaded
        /// The last read or refresh failed; the message is for the person looking at the screen.
        case failed(String)
    }

    /// The posts to show: those matching ``searchText``, in id order, as the store holds them now.
    public private(set) var posts: [Post] = []

    /// What the screen shows besides the posts.
    public private(set) var status: Status = .idle

    /// What the last successful refresh did.
    public private(set) var lastRefresh: SyncReport?

    /// When the store was last synced, from any source, by anyone; `nil` before the first sync.
    public private(set) var lastSyncedAt: Date?

    /// The text the posts are filtered by; empty shows every post.
    public private(set) var searchText = ""

    @ObservationIgnored private let store: any PostStoreProtocol
    @ObservationIgnored private let sync: SyncService
    /// The observation of the posts for the current search, replaced by each search.
    @ObservationIgnored private var postsObservation: Task<Void, Never>?
    /// The observation of the sync states, while started.
    @ObservationIgnored private var syncStatesObservation: Task<Void, Never>?

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

    /// Starts showing the store as it is and as it changes, until ``stop()``; calling it again changes nothing.
    public func start() {
        guard syncStatesObservation == nil else { return }
        observePosts()
        syncStatesObservation = Task { [store] in
            // The loop runs on the main actor, as the task does: each result is shown without a hop of its own.
            do {
                for try await states in store.observeSyncStates() { lastSyncedAt = states.first?.syncedAt }
            } catch {
                status = .failed(Self.message(for: error))
            }
        }
    }

    /// Stops observing the store: what is shown stays as it was.
    public func stop() {
        postsObservation?.cancel()
        syncStatesObservation?.cancel()
        postsObservation = nil
        syncStatesObservation = nil
    }

    /// Shows only the posts matching `text` (every word, in the title or the body, ignoring case), from now on.
    ///
    /// - Parameter text: The search text.
    public func search(_ text: String) {
        searchText = text
        if syncStatesObservation != nil { observePosts() }
    }

    /// Syncs the store from the source; the posts shown follow from the observation. On failure they stay as they
    /// were.
    public func refresh() async {
        do {
            lastRefresh = try await sync.sync()
        } catch {
            status = .failed(Self.message(for: error))
        }
    }

    /// Observes the posts of the current search, ending the observation of the one before: its results, even one
    /// read already, are never shown.
    private func observePosts() {
        postsObservation?.cancel()
        let query = PostQuery(search: searchText)
        postsObservation = Task { [store] in
            do {
                for try await found in store.observe(query) {
                    // A search after this one cancelled the task on the main actor, where this runs too: a result
                    // that was read before (or while) it was cancelled is the old search's, never shown.
                    guard !Task.isCancelled else { return }
                    posts = found
                    status = .loaded
                }
            } catch {
                guard !Task.isCancelled else { return }
                status = .failed(Self.message(for: error))
            }
        }
    }

    private static func message(for error: any Error) -> String {
        (error as? PostStoreError)?.message ?? "Something went wrong: \(error)"
    }
}
