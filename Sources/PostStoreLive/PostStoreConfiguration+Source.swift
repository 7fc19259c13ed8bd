public import Foundation
@_spi(FileSystem) public import PostStore
import PostStoreContainer
import PostStoreHTTP

extension PostStoreConfiguration {
    /// Where a sync takes posts from: an http(s) URL, a file, or standard input.
    ///
    /// For example:
    ///
    /// ```swift
    /// let source = try PostStoreConfiguration.Source(parsing: "Samples/posts.json")
    /// // source == .file(path: "Samples/posts.json")
    /// ```
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Hashable {
            case http(URL, pageSize: Int?)
            case file(path: String)
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// An `HTTPPostDataService` for the URL, paged when a page size is given.
        ///
        /// - Parameters:
        ///   - url: The endpoint; `http` or `https`.
        ///   - pageSize: Posts per page, or `nil` for one request.
        /// - Returns: The source.
        public static func http(_ url: URL, pageSize: Int? = nil) -> Source { Source(.http(url, pageSize: pageSize)) }

        /// A `FilePostDataService` for the path (`-` for standard input).
        ///
        /// - Parameter path: The file, or `-`.
        /// - Returns: The source.
        public static func file(path: String) -> Source { Source(.file(path: path)) }

        /// Parses a source as users write it: an http(s) URL, a file path, or `-` for standard input.
        ///
        /// - Parameters:
        ///   - text: The source.
        ///   - pageSize: Posts per page for a URL; a file takes none.
        /// - Throws: `PostStoreError/Code/invalidArgument` for a malformed URL, a URL with a user name or password,
        ///   another scheme, or a page size with a file.
        public init(parsing text: String, pageSize: Int? = nil) throws(PostStoreError) {
            if text.afterCaseInsensitivePrefix("http://") != nil || text.afterCaseInsensitivePrefix("https://") != nil {
                guard let url = URL(string: text), url.host != nil else {
                    throw PostStoreError(.invalidArgument, "The source \"\(text)\" is not a valid URL.")
                }
                try HTTPPostDataService.refuseCredentials(in: url)
                self = .http(url, pageSize: pageSize)
                return
            }
            if text.scheme != nil {
                throw PostStoreError(
                    .invalidArgument,
                    "Unsupported source \"\(text)\"; use an http(s) URL, a file path, or - for standard input."
                )
            }
            guard pageSize == nil else {
                throw PostStoreError(
                    .invalidArgument,
                    "A page size applies to an http(s) source only, not to \"\(text)\"."
                )
            }
            self = .file(path: text)
        }

        /// Whether the source is a file (or standard input) rather than a URL.
        public var isFile: Bool {
            if case .file = kind { return true }
            return false
        }

        /// The URL or the path.
        public var description: String {
            switch kind {
            case .http(let url, _): url.absoluteString
            case .file(let path): path
            }
        }

        /// The data service this source names.
        func makeDataService(
            _ configuration: PostStoreConfiguration,
            wiring: LiveWiring
        ) throws -> any PostDataService {
            switch kind {
            case .http(let url, let pageSize):
                try HTTPPostDataService(
                    url: url,
                    pageSize: pageSize,
                    timeout: configuration.requestTimeout,
                    retryPolicy: configuration.retryPolicy,
                    limits: configuration.limits,
                    transport: try wiring.transport(),
                    clock: try wiring.clock(),
                    random: try wiring.random(),
                    logger: wiring.logger()
                )
            case .file(let path):
                FilePostDataService(path: path, limits: configuration.limits, fileSystem: try wiring.fileSystem())
            }
        }
    }
}
