import Foundation
import Logging
import PostStore

/// `swift run poststore-quickstart [POSTS.json]`: syncs a file of posts (by default `Samples/posts.json`; a JSON
/// array or one post per line) into each of the three engines with ``SyncService``, runs one query on each, and
/// shows that they answer the same.
///
/// A tour of the library API until the `poststore` command-line tool exists; the stores live in a temporary folder
/// that is deleted at the end.
@main
struct QuickStart {
    static let usage = "usage: poststore-quickstart [FILE | -]   (default: Samples/posts.json; - reads standard input)"

    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
            print(usage)
            return
        }
        guard arguments.count <= 1, arguments.first.map({ $0 == "-" || !$0.hasPrefix("-") }) ?? true else {
            printError("poststore-quickstart: unexpected arguments \(arguments.joined(separator: " ")).\n\(usage)")
            exit(64)
        }
        let source = arguments.first ?? "Samples/posts.json"
        do {
            try await run(source: source)
        } catch let error as PostStoreError {
            printError("poststore-quickstart: \(error.message)")
            switch error.code {
            case .invalidArgument: exit(64)
            case .invalidData: exit(65)
            case .sourceNotFound: exit(66)
            default: exit(74)
            }
        } catch {
            printError("poststore-quickstart: \(error)")
            exit(1)
        }
    }

    static func run(source: String) async throws {
        // Read once: standard input cannot be read again for the next engine.
        let fetched = try await FilePostDataService(path: source).fetchPosts(PostFetchRequest())
        guard case .posts(let posts, _, _) = fetched else { return }
        let file = PostsAlreadyRead(source: source, posts: posts)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poststore-quickstart-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let stores: [(name: String, store: any PostStoreProtocol)] = [
            ("in-memory", InMemoryPostStore()),
            ("JSON file", try JSONFilePostStore(path: folder.appendingPathComponent("posts.json").path)),
            ("SQLite", try SQLitePostStore(path: folder.appendingPathComponent("posts.sqlite").path)),
        ]
        let query = PostQuery(userIds: [1], search: "dolor", sort: .title)
        let quiet = Logger(label: "poststore-quickstart") { _ in SwiftLogNoOpLogHandler() }
        let name = source == FilePostDataService.standardInputPath ? "standard input" : source
        print("Syncing \(name) into each engine twice; then query: user 1, search \"dolor\", sorted by title.\n")

        var answers: [[Post]] = []
        for (name, store) in stores {
            let sync = SyncService(dataService: file, store: store, clock: SystemClock(), logger: quiet)
            let first = try await sync.sync()
            let again = try await sync.sync()
            let answer = try await store.query(query)
            answers.append(answer)
            print(
                "\(name): first sync fetched \(first.fetched) and inserted \(first.inserted),",
                "second left \(again.unchanged) unchanged; \(answer.count) posts match"
            )
        }
        print("")
        for post in answers[0] {
            print("  #\(post.id)  \(post.title)")
        }
        let agree = answers.allSatisfy { $0 == answers[0] }
        print(agree ? "\nAll three engines gave the same answer." : "\nThe engines disagree: this is a bug.")
        if !agree { exit(1) }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// A data service over posts already read and checked by ``FilePostDataService``.
private struct PostsAlreadyRead: PostDataService {
    let source: String
    let posts: [Post]

    func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
        .posts(posts, etag: nil, pages: 1)
    }
}
