import PostStore
import Synchronization

/// The posts of a query's answer, gathered as its rows arrive (from any thread): a search's candidates checked
/// exactly, then the search's window applied.
final class PostgresAnswer: Sendable {
    private struct State {
        var posts: [Post] = []
        var skipped = 0
        var matched = 0
    }

    private let plan: PostgresQueryPlan
    private let offset: Int
    private let limit: Int?
    private let state = Mutex(State())

    init(plan: PostgresQueryPlan, query: PostQuery) {
        self.plan = plan
        offset = query.offset
        limit = query.limit
    }

    /// The posts taken so far.
    var posts: [Post] { state.withLock { $0.posts } }

    /// How many rows offered so far passed the search, in the window or not.
    var matched: Int { state.withLock { $0.matched } }

    /// Takes a row's post; `false` once the window is full, so that reading can stop.
    ///
    /// Without a search the statement itself applies the window, and every row is taken.
    @discardableResult
    func take(_ post: Post) -> Bool {
        state.withLock { state in
            guard plan.checksInSwift else {
                state.posts.append(post)
                return true
            }
            guard plan.search.matches(post) else { return true }
            state.matched += 1
            if state.skipped < offset {
                state.skipped += 1
                return true
            }
            if let limit, state.posts.count >= limit { return false }
            state.posts.append(post)
            return true
        }
    }
}
