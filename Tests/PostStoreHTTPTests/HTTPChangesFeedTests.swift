import Foundation
import HTTPTypes
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

@testable import PostStoreHTTP

/// The HTTP data service as a client of a changes feed, against a scripted transport: discovery, requests, and
/// answers it refuses (a hostile or broken feed) before anything reaches a store.
@Suite struct HTTPChangesFeedTests {
    private let url = URL(string: "https://example.com/api/posts")!
    private let token = ChangeToken("0a1b2c3d-40")!

    private func service(_ transport: StubHTTPTransport, pageSize: Int? = nil) throws -> HTTPPostDataService {
        try HTTPPostDataService(
            url: url,
            pageSize: pageSize,
            timeout: .seconds(10),
            transport: transport,
            clock: TestClock(),
            random: FixedRandomSource(fraction: 0.5)
        )
    }

    private static func feed(_ body: String, status: Int = 200) -> StubHTTPTransport.Reply {
        .status(status, headers: [.contentType: "application/json"], body: body)
    }

    private func answer(_ changes: PostChanges, since: ChangeToken?) -> StubHTTPTransport.Reply {
        .response(HTTPResponse(status: .ok), body: Data(PostChangesJSON.encode(changes, since: since)))
    }

    @Test func aWholeCopyWithATokenIsTheChangesOfEveryPost() async throws {
        let posts = SamplePosts.make(count: 3)
        let transport = StubHTTPTransport([.posts(posts, headers: [.changesToken: token.description])])
        let result = try await service(transport).fetchChanges(PostChangesRequest(since: nil))
        guard case .changes(let changes, let pages) = result else { throw Unexpected(result) }
        #expect(changes == PostChanges(posts: posts, deletedIds: [], next: token, isCaughtUp: true) && pages == 1)
        #expect(transport.requests.map(\.url) == [url], "the same request as a whole sync")
    }

    @Test func aSourceWithoutATokenHasNoFeedAndA304WithOneNamesTheState() async throws {
        for reply in [StubHTTPTransport.Reply.posts(SamplePosts.make(count: 2)), .status(304)] {
            let transport = StubHTTPTransport([reply])
            let result = try await service(transport).fetchChanges(PostChangesRequest(since: nil, etag: "\"e\""))
            guard case .withoutFeed = result else { throw Unexpected(result) }
        }
        let withToken = StubHTTPTransport([.status(304, headers: [.changesToken: token.description])])
        let result = try await service(withToken).fetchChanges(PostChangesRequest(since: nil, etag: "\"e\""))
        guard case .notModified(let next) = result, next == token else { throw Unexpected(result) }
    }

    @Test func pagesOfOneStateCarryItsTokenAndPagesOfTwoDoNot() async throws {
        let posts = SamplePosts.make(count: 5)
        func page(_ number: Int, _ token: ChangeToken) -> StubHTTPTransport.Reply {
            .posts(Array(posts.dropFirst((number - 1) * 2).prefix(2)), headers: [.changesToken: token.description])
        }
        let one = StubHTTPTransport([page(1, token), page(2, token), page(3, token)])
        guard
            case .changes(let changes, 3) = try await service(one, pageSize: 2).fetchChanges(
                PostChangesRequest(since: nil)
            )
        else { throw Unexpected("one state") }
        #expect(changes.posts == posts && changes.next == token)
        let two = StubHTTPTransport([page(1, token), page(2, ChangeToken("0a1b2c3d-41")!), page(3, token)])
        guard
            case .withoutFeed(.posts) = try await service(two, pageSize: 2).fetchChanges(PostChangesRequest(since: nil))
        else { throw Unexpected("two states") }
    }

    @Test func theChangesSinceATokenAreOneRequestToTheFeedThatWaitsItsWaitMore() async throws {
        let next = ChangeToken("0a1b2c3d-42")!
        let changes = PostChanges(posts: SamplePosts.make(count: 1), deletedIds: [7], next: next, isCaughtUp: true)
        let transport = StubHTTPTransport([answer(changes, since: token)])
        let result = try await service(transport).fetchChanges(
            PostChangesRequest(since: token, limit: 50, wait: .milliseconds(2500))
        )
        guard case .changes(let received, 1) = result else { throw Unexpected(result) }
        #expect(received == changes)
        let sent = try #require(transport.requests.first)
        #expect(
            sent.url?.absoluteString
                == "https://example.com/api/posts/_changes?since=0a1b2c3d-40&limit=50&wait=2.5"
        )
        #expect(sent.timeout == .milliseconds(12_500))
    }

    @Test func goneAndAMissingFeedMustRefetch() async throws {
        let gone = StubHTTPTransport([
            Self.feed(#"{"error": "it is older than the store's change history"}"#, status: 410)
        ])
        guard case .mustRefetch(let reason) = try await service(gone).fetchChanges(PostChangesRequest(since: token))
        else { throw Unexpected("410") }
        #expect(reason == "it is older than the store's change history")
        let missing = StubHTTPTransport([.status(404)])
        guard case .mustRefetch(let why) = try await service(missing).fetchChanges(PostChangesRequest(since: token))
        else { throw Unexpected("404") }
        #expect(why.contains("offers no changes feed"))
    }

    /// Answers a client must not apply: each is `invalidData` with a line that says what is wrong.
    static let hostileAnswers: [(name: String, body: String, mentions: String)] = [
        ("not JSON", "<html>", "expected an object"),
        (
            "truncated",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [], "posts": [{"userId": 1"#,
            "the end of the data"
        ),
        ("no next", #"{"since": "0a1b2c3d-40", "caughtUp": true, "deleted": [], "posts": []}"#, #"no "next""#),
        (
            "a bad token", #"{"since": "0a1b2c3d-40", "next": "?", "caughtUp": true, "deleted": [], "posts": []}"#,
            "not a change token"
        ),
        (
            "a bad post",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [], "posts": [{"id": 1}]}"#,
            "its posts"
        ),
        (
            "a repeated key",
            #"{"since": "0a1b2c3d-40", "since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [], "posts": []}"#,
            "twice"
        ),
        (
            "another token answered",
            #"{"since": "0a1b2c3d-39", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [], "posts": []}"#,
            "answers the token 0a1b2c3d-39"
        ),
        (
            "a token that goes back",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-39", "caughtUp": true, "deleted": [1], "posts": []}"#,
            "leads back"
        ),
        (
            "another store's token",
            #"{"since": "0a1b2c3d-40", "next": "ffff-41", "caughtUp": true, "deleted": [1], "posts": []}"#,
            "another store"
        ),
        (
            "changes that do not move the token",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-40", "caughtUp": true, "deleted": [3], "posts": []}"#,
            "leaves its token"
        ),
        (
            "a post both written and deleted",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [1], "posts": [{"userId": 1, "id": 1, "title": "", "body": ""}]}"#,
            "both written and deleted"
        ),
        (
            "a repeated deletion",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": true, "deleted": [2, 2], "posts": []}"#,
            "twice"
        ),
        (
            "an empty answer that is not caught up",
            #"{"since": "0a1b2c3d-40", "next": "0a1b2c3d-41", "caughtUp": false, "deleted": [], "posts": []}"#,
            "would never end"
        ),
    ]

    @Test(arguments: hostileAnswers.indices)
    func aHostileAnswerIsRefusedWithOneLine(index: Int) async throws {
        let (_, body, mentions) = Self.hostileAnswers[index]
        let transport = StubHTTPTransport([Self.feed(body)])
        let error = await #expect(throws: PostStoreError.self) {
            _ = try await service(transport).fetchChanges(PostChangesRequest(since: token))
        }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("https://example.com/api/posts/_changes") == true)
        #expect(error?.message.contains("\n") == false)
    }

    private struct Unexpected: Error, CustomStringConvertible {
        let description: String
        init(_ what: Any) { description = "unexpected: \(what)" }
    }
}
