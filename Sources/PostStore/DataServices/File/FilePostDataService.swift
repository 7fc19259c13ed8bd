import Foundation

/// Reads posts from a local file, or from standard input: a JSON array of posts, or newline-delimited JSON (one
/// post per line).
///
/// ``streamPosts(_:)`` reads the input a piece at a time while the store writes, checking every post (see
/// ``PostJSON``; a problem found part-way leaves the store as it was). A file has no `ETag`, so every fetch
/// returns its posts; an unchanged file syncs without writing a post.
///
/// For example:
///
/// ```swift
/// let service = FilePostDataService(path: "Samples/posts.json")
/// let posts = try await service.fetchAllPosts()
/// ```
public struct FilePostDataService: PostDataService {
    /// What ``path`` is for standard input.
    public static let standardInputPath = "-"

    /// The file, or `-` for standard input.
    public let path: String

    /// What the service accepts: the post limit for files, both limits for standard input (held in memory).
    public let limits: PayloadLimits

    private let fileSystem: any FileSystemProtocol

    /// The path, as sync states and reports name it; `standard input` for `-`.
    public var source: String { path == Self.standardInputPath ? "standard input" : path }

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - limits: What the service accepts.
    ///   - fileSystem: Where the file is read from.
    @_spi(FileSystem) public init(
        path: String,
        limits: PayloadLimits = PayloadLimits(),
        fileSystem: any FileSystemProtocol
    ) {
        self.path = path
        self.limits = limits
        self.fileSystem = fileSystem
    }

    /// Opens the file (so a missing file or a folder is reported at once) and returns a stream that reads it a
    /// piece at a time: a sync of any size needs memory for one piece, not the whole file.
    ///
    /// Standard input is read to its end first, before the store is touched: it cannot be read twice (a store may
    /// make a second reader to retry its write), and a slow producer must not hold the store's write lock. The
    /// bytes are kept, but the posts are still streamed from them.
    public func streamPosts(_ request: PostFetchRequest) async throws -> PostStreamResult {
        try PathCheck.validate(path, naming: "The input file's path")
        try limits.validate()
        let makeFile: @Sendable () throws -> any ReadableFile
        if path == Self.standardInputPath {
            let limit = limits.maximumPayloadBytes
            guard
                let input = try Self.readFailures(path, { try fileSystem.contentsOfStandardInput(maximumBytes: limit) })
            else {
                throw PostStoreError(.invalidData, limits.payloadTooLarge("Standard input"))
            }
            makeFile = { DataReadableFile(input) }
        } else {
            // Opened now to report a missing file before the store is touched, then handed to the first reader.
            let opened = OpenedFile(try Self.open(path, fileSystem: fileSystem))
            makeFile = { [path, fileSystem] in try opened.take() ?? Self.open(path, fileSystem: fileSystem) }
        }
        let stream = PostStream { [path, source, limits] in
            let reader = PostPayloadReader(file: try makeFile(), maximumPostBytes: limits.maximumPostBytes) { error in
                PostStoreError(
                    .invalidData,
                    "Cannot use the posts in \(source): \(error.message)",
                    path: path == Self.standardInputPath ? nil : path,
                    cause: error
                )
            }
            let reading = WorkProgress(phase: .reading, completed: 0, bytes: 0, totalBytes: reader.totalBytes)
            return ReportingPostReader(reader, phase: reading, bytesRead: { reader.bytesRead }) {
                request.progress(.working($0))
            }
        }
        return .posts(stream, etag: nil, pages: 1)
    }

    private static func open(_ path: String, fileSystem: any FileSystemProtocol) throws -> any ReadableFile {
        try readFailures(path) {
            guard let file = try fileSystem.openFileForReading(atPath: path) else {
                throw PostStoreError(.sourceNotFound, "There is no input file at \(path).", path: path)
            }
            return file
        }
    }

    /// Runs a read of the input, naming a folder as such and any error that is not a ``PostStoreError``.
    private static func readFailures<Result>(_ path: String, _ read: () throws -> Result) throws -> Result {
        let name = path == standardInputPath ? "standard input" : path
        do {
            return try read()
        } catch let error as PostStoreError {
            if (error.cause as? SystemError)?.code == EISDIR {
                throw PostStoreError(.sourceNotFound, "\(name) is a folder, not a file of posts.", path: path)
            }
            throw error
        } catch {
            throw PostStoreError(
                .ioFailure,
                "Cannot read \(name): \(error.localizedDescription)",
                path: path,
                cause: error
            )
        }
    }
}
