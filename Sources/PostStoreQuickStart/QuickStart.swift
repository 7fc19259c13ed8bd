import Foundation
import PostStore
import PostStoreEngines
import PostStoreLive

/// `swift run poststore-quickstart [FILE | -]`: syncs a file of posts (by default `Samples/posts.json`; a JSON
/// array or one post per line; `-` for standard input) into a store of each engine, each wired by the
/// composition root `PostStoreDependencies.live(_:)`, runs one query on each, and shows that they answer the same.
///
/// A tour of the library API, for code that embeds PostStore (the `poststore` command-line tool does the same
/// from a terminal: `poststore sync`, then `poststore query`); the stores live in a temporary folder that is
/// deleted at the end.
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poststore-quickstart-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Standard input can be read once; the engines read a copy.
        var input = source
        if source == FilePostDataService.standardInputPath {
            input = folder.appendingPathComponent("standard-input").path
            try FileHandle.standardInput.readDataToEndOfFile().write(to: URL(fileURLWithPath: input))
        }

        // Each engine's graph comes from the composition root, as an app's would: one store of every engine in its
        // table that needs no server (the tour runs offline; PostgreSQL's is in the guide's Many Machines).
        let stores = StoreEngine.all.filter { $0.locationKind != .serverURL }.map { engine in
            guard let fileExtension = engine.fileExtensions.first else { return StoreSpec(engine) }
            return StoreSpec(engine, path: folder.appendingPathComponent("posts." + fileExtension).path)
        }
        let query = PostQuery(userIds: [1], search: "dolor", sort: .title)
        var lines: [String] = []
        var answers: [[Post]] = []
        for store in stores {
            let configuration = PostStoreConfiguration(store: store, source: .file(path: input))
            let dependencies = try PostStoreDependencies.live(configuration)
            let first = try await dependencies.syncService.sync()
            let again = try await dependencies.syncService.sync()
            let answer = try await dependencies.store.query(query)
            answers.append(answer)
            lines.append(
                "\(store.engine): first sync fetched \(first.fetched) and inserted \(first.inserted), "
                    + "second left \(again.unchanged) unchanged; \(answer.count) posts match"
            )
        }
        // Printed only once every engine has synced, so a bad input prints nothing but its error.
        let name = source == FilePostDataService.standardInputPath ? "standard input" : source
        print("Synced \(name) into each engine twice; then query: user 1, search \"dolor\", sorted by title.\n")
        for line in lines { print(line) }
        print("")
        let idWidth = answers[0].map { String($0.id).count }.max() ?? 0
        for post in answers[0] {
            let id = String(post.id)
            print("  " + String(repeating: " ", count: idWidth - id.count) + "#\(id)  \(post.title)")
        }
        let agree = answers.allSatisfy { $0 == answers[0] }
        print(agree ? "\nAll \(stores.count) engines gave the same answer." : "\nThe engines disagree: this is a bug.")
        if !agree { exit(1) }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
