import Foundation
import HTTPTypes
public import PostStore
import PostStoreEngines

/// The changes feed of a `poststore serve` source: `GET URL/_changes?since=TOKEN&limit=N&wait=SECONDS`
/// (openapi.yaml).
extension HTTPPostDataService: PostChangesSource {
    /// Fetches every post with the token of their state, or the changes since a token.
    ///
    /// Without a token this is the fetch of ``streamPosts(_:)`` (the same requests), and the server's
    /// `PostStore-Changes-Token` header gives the token; pages that name different tokens came from different
    /// states, and their posts are returned without one (`PostChangesResult.withoutFeed(_:)`), as from a server
    /// without a feed. A `304 Not Modified` with a token is `PostChangesResult.notModified(next:)`. With a token, one request to the feed; its answer is checked before it is returned: it must
    /// answer that token, from the same store, and never lead back (a malformed or contradictory answer is
    /// `invalidData`). `410 Gone`, and a `404` (the server no longer offers a feed), are
    /// `PostChangesResult.mustRefetch(_:)`. The request waits the service's timeout plus the request's `wait`.
    public func fetchChanges(_ request: PostChangesRequest) async throws -> PostChangesResult {
        guard let since = request.since else {
            let whole = try await fetchEveryPost(PostFetchRequest(etag: request.etag, progress: request.progress))
            guard let token = whole.token else { return .withoutFeed(whole.result) }
            switch whole.result {
            case .notModified:
                return .notModified(next: token)
            case .posts(_, _, let pages):
                return .changes(
                    PostChanges(posts: whole.posts, deletedIds: [], next: token, isCaughtUp: true),
                    pages: pages
                )
            }
        }
        let feed = Self.changesURL(of: url, since: since, limit: request.limit, wait: request.wait)
        let downloading = WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: 0)
        request.progress(.working(downloading))
        let answer = try await get(
            feed,
            etag: nil,
            maximumBytes: limits.maximumPayloadBytes,
            downloading: downloading,
            progress: request.progress,
            timeout: timeout + request.wait,
            answering: [404, 410]
        )
        switch answer.response.status.code {
        case 410:
            return .mustRefetch(Self.errorMessage(in: answer.body) ?? describe(answer, from: feed))
        case 404:
            return .mustRefetch("\(feed.absoluteString) offers no changes feed (HTTP 404)")
        default:
            break
        }
        let changes: PostChanges
        do {
            let (echo, decoded) = try PostChangesJSON.decode(answer.body, maximumPostBytes: limits.maximumPostBytes)
            try Self.check(decoded, echoing: echo, asked: since)
            changes = decoded
        } catch {
            throw PostStoreError(
                .invalidData,
                "Cannot use the changes from \(feed.absoluteString): \(error.message) Nothing was synced.",
                cause: error
            )
        }
        request.progress(
            .working(
                WorkProgress(phase: .downloading, completed: changes.count, pages: 1, bytes: answer.body.count).finished
            )
        )
        return .changes(changes, pages: 1)
    }

    /// The feed's URL for a source URL: its path with `/_changes` after it, its query replaced by the feed's.
    static func changesURL(of url: URL, since: ChangeToken, limit: Int, wait: Duration) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.path =
            (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path)
            + "/_changes"
        var items = [
            URLQueryItem(name: "since", value: since.description),
            URLQueryItem(name: "limit", value: String(limit)),
        ]
        if wait > .zero { items.append(URLQueryItem(name: "wait", value: wait.decimalSeconds)) }
        components.queryItems = items
        return components.url ?? url
    }

    /// Refuses an answer that does not answer the token asked, comes from another store, leads back, or moves
    /// nowhere while it holds changes.
    private static func check(
        _ changes: PostChanges,
        echoing echo: ChangeToken?,
        asked since: ChangeToken
    ) throws(PostStoreError) {
        func refuse(_ problem: String) -> PostStoreError {
            PostStoreError(.invalidData, "The changes answer \(problem).")
        }
        guard echo == since else { throw refuse("answers the token \(echo?.description ?? "null"), not \(since)") }
        guard changes.next.storeID == since.storeID else {
            throw refuse("leads to a token of another store, \(changes.next), from \(since)")
        }
        guard changes.next.revision >= since.revision else {
            throw refuse("leads back, from \(since) to \(changes.next)")
        }
        guard changes.next != since || changes.count == 0 else {
            throw refuse("holds \(changes.count) changes but leaves its token at \(since)")
        }
    }

    /// The message of a `{"error": "…"}` body, as `poststore serve` sends its refusals.
    private static func errorMessage(in body: Data) -> String? {
        (try? JSONDecoder().decode([String: String].self, from: body))?["error"]
    }
}
