import ArgumentParser
import Foundation
import Logging
import PostStore
import PostStoreServer

/// `poststore serve`: the store as a JSONPlaceholder-compatible HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store as a JSONPlaceholder-compatible HTTP API.",
        discussion: """
            Routes: GET /posts (id=, userId=, q=, _sort=, _order=, _page=, _limit=, _start=, _end=, and field \
            filters such as title_like= and id_gte=), GET /posts/ID, GET /users/ID/posts, the changes feed \
            GET /posts/_changes (since=, limit=, wait=); HEAD and OPTIONS on each; a browser gets pages at / and on \
            the list and post routes; with --allow-writes, POST /posts and PUT, PATCH, DELETE /posts/ID. Answers \
            carry an ETag; If-None-Match answers 304 while the posts are unchanged, and a write with If-Match \
            answers 412 when the post changed since.
            One access-log line per request on standard error. Ctrl-C or SIGTERM stops accepting, lets requests in \
            flight finish, and exits 0.
            Examples:
              poststore serve --store demo.sqlite
              poststore serve --port 8080 --allow-writes --cors http://localhost:5173
              poststore sync --from http://127.0.0.1:3000/posts --store mirror.sqlite --follow
            """
    )

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The address to listen on (0.0.0.0: every interface).")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "The port to listen on (0: any free one).")
    var port = 3000

    @Flag(name: .customLong("allow-writes"), help: "Let POST, PUT, PATCH and DELETE change the store.")
    var allowWrites = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Which web pages may read the answers: an origin such as http://localhost:5173, * for any, or off "
                + "(default: * without --allow-writes, off with it).",
            valueName: "origin"
        )
    )
    var cors: String?

    @Option(name: .customLong("log-format"), help: "The access log's lines: text or json.")
    var logFormat: LogFormat = .text

    @Flag(name: .long, help: "No access log.")
    var quiet = false

    @Option(name: .customLong("max-limit"), parsing: .unconditional, help: "The largest _limit a list may ask for.")
    var maxLimit = 1000

    @Option(
        name: .customLong("max-body-size"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse a write's body of more than SIZE bytes with 413 (K, M, G: binary units; default: "
                + "\(ByteSize(bytes: PayloadLimits.defaultMaximumPostBytes).defaultValueDescription)).",
            valueName: "size"
        ),
        transform: ByteSize.parse
    )
    var maxBodySize = ByteSize(bytes: PayloadLimits.defaultMaximumPostBytes)

    @Option(name: .customLong("max-connections"), parsing: .unconditional, help: "Connections open at once.")
    var maxConnections = 1024

    @Option(
        name: .customLong("request-timeout"),
        parsing: .unconditional,
        help: "Seconds a request's body may take to arrive and the store to answer it (then 408 or 503)."
    )
    var requestTimeout: Double = 30

    @Option(
        name: .customLong("idle-timeout"),
        parsing: .unconditional,
        help: "Seconds a connection may stay idle before it is closed."
    )
    var idleTimeout: Double = 60

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535 (got \(port)).") }
        guard maxLimit >= 1 else { throw ValidationError("--max-limit must be at least 1 (got \(maxLimit)).") }
        guard maxConnections >= 1 else {
            throw ValidationError("--max-connections must be at least 1 (got \(maxConnections)).")
        }
        for (name, seconds) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout)]
        where !(seconds >= 0.001 && seconds <= 86_400) {
            throw ValidationError("\(name) must be a number of seconds from 0.001 to 86400 (got \(seconds)).")
        }
        _ = try corsSetting()
        if !allowWrites {
            try options.refuseInMemory(
                "so a server that takes no writes would serve nothing; add --allow-writes, or name a file or "
                    + "database store"
            )
        }
    }

    func run() async throws {
        let spec = try options.spec()
        var configuration = PostServerConfiguration(
            host: host,
            port: port,
            allowsWrites: allowWrites,
            cors: try corsSetting(),
            accessLog: quiet ? nil : logFormat == .json ? .json : .text
        )
        configuration.maximumLimit = maxLimit
        configuration.maximumBodyBytes = maxBodySize.bytes
        configuration.maximumConnections = maxConnections
        configuration.requestTimeout = .milliseconds(Int64((requestTimeout * 1000).rounded()))
        configuration.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
        configuration.storeName = spec.description
        try await Failure.report(Self.self, verbose: options.verbose) {
            let store = try await StoreOptions.store(spec, openMode: .openExisting, servesRequests: true)
            let mode = allowWrites ? "writes allowed" : "read-only"
            // The server's own events at warning and above; the access log is its own.
            var logger = Logger(label: "poststore.serve")
            logger.logLevel = .warning
            try await PostServer(store: store, configuration: configuration, logger: logger).run { host, port in
                let address = PostServer.hostAndPort(host, port)
                Output.error("poststore: serving \(spec) at http://\(address)/posts (\(mode)); Ctrl-C stops.")
            }
            Output.error("poststore: stopped (requests in flight had up to 10 seconds to finish).")
        }
    }

    /// `--cors` as a setting: `nil` (the default for the write mode), any origin, none, or one origin.
    private func corsSetting() throws -> PostServerConfiguration.CORS? {
        switch cors {
        case nil: return nil
        case "*": return .anyOrigin
        case "off": return .off
        case let origin?:
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ValidationError(
                    "--cors must be an origin such as http://localhost:5173, * or off (got \"\(origin)\")."
                )
            }
            return .origin(origin.hasSuffix("/") ? String(origin.dropLast()) : origin)
        }
    }
}
