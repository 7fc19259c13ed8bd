import ArgumentParser
import Foundation
import PostStore

/// `poststore query`: prints the posts a query selects.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the posts a query selects.",
        discussion: """
            Examples:
              poststore query --store demo.sqlite --user 1
              poststore query --search "dolor sit" --sort -id --limit 5 --format json
              poststore query --format csv > posts.csv
              poststore query --count
              poststore query --user 1 --watch --format json
            With --watch the result is printed again after each write that changes it, by this or any other
            process or machine, until interrupted (Ctrl-C exits 0). With json each result is one line (a JSON
            array); with ndjson, csv and table a blank line ends each result; with --count each count is a line.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, ndjson, csv
    }

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case id
        case descendingId = "-id"
        case title
        case descendingTitle = "-title"
        case user
        case descendingUser = "-user"

        var order: PostQuery.Sort {
            switch self {
            case .id: .idAscending
            case .descendingId: .idDescending
            case .title: .title
            case .descendingTitle: .titleDescending
            case .user: .user
            case .descendingUser: .userDescending
            }
        }
    }

    @OptionGroup var options: StoreOptions
    @OptionGroup var progressOptions: ProgressOptions

    @Option(name: .customLong("id"), parsing: .unconditionalSingleValue, help: "Only this id (repeat for several).")
    var ids: [Int] = []

    @Option(
        name: .customLong("user"),
        parsing: .unconditionalSingleValue,
        help: "Only posts of this user id (repeat for several)."
    )
    var users: [Int] = []

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "Every word must occur in the title or the body (case-insensitive)."
    )
    var search: String?

    @Option(name: .long, parsing: .unconditional, help: "id, title or user; -id, -title or -user for descending.")
    var sort: Sort = .id

    @Option(name: .long, parsing: .unconditional, help: "At most N posts.")
    var limit: Int?

    @Option(name: .long, parsing: .unconditional, help: "Skip the first N posts.")
    var offset: Int = 0

    @Option(name: .long, help: "table, json, ndjson or csv.")
    var format: Format = .table

    @Flag(name: .long, help: "Print only how many posts match (not with --limit or --offset).")
    var count = false

    @Flag(name: .long, help: "Print the result again after each write that changes it, until interrupted.")
    var watch = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more (got \(limit)).") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more (got \(offset)).") }
        if count, limit != nil || offset != 0 {
            throw ValidationError("--count counts every matching post; it does not take --limit or --offset.")
        }
        try options.refuseInMemory("so there is nothing to query; name a file or database store")
    }

    func run() async throws {
        let spec = try options.spec()
        try await Failure.report(Self.self, verbose: options.verbose) {
            let store = try await StoreOptions.existingStore(spec, drawing: progressOptions)
            let query = PostQuery(
                ids: ids.isEmpty ? nil : Set(ids),
                userIds: users.isEmpty ? nil : Set(users),
                search: search ?? "",
                sort: sort.order,
                limit: limit,
                offset: offset
            )
            guard watch else { return print(try await store.query(query)) }
            // Every result is printed whole before the next is read; a signal ends the wait for the next.
            _ = try await SignalCancellation.run {
                var lastCount: Int?
                for try await posts in store.observe(query) {
                    // A count is printed when it changes, not each time the posts it counts do.
                    if count, posts.count == lastCount { continue }
                    lastCount = posts.count
                    print(posts, endingAResult: true)
                }
            }
        }
    }

    /// Prints a result in the chosen format; with `endingAResult`, followed by what ends it in `--watch`.
    private func print(_ posts: [Post], endingAResult: Bool = false) {
        if count {
            return Output.line(String(posts.count))
        }
        switch format {
        case .json: Output.data(PostJSON.encode(posts) + Data("\n".utf8))
        case .ndjson:
            for post in posts { Output.data(PostJSON.encode(post) + Data("\n".utf8)) }
        case .csv: Output.data(Data(PostsAsText.csv(posts).utf8))
        case .table: Output.data(Data(PostsAsText.text(posts, width: Output.width).utf8))
        }
        if endingAResult, format != .json { Output.line("") }
    }
}
