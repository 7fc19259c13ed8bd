import Foundation

/// Reads posts from a local file, or from standard input: a JSON array of posts, or newline-delimited JSON (one
/// post per line).
///
/// The whole input is read and checked (see ``PostPayload``) before anything is returned. A file has no `ETag`, so
/// every fetch returns its posts; an unchanged file syncs without writing a post.
///
/// For example:
///
/// ```swift
/// let service = FilePostDataService(path: "Samples/posts.json")
/// let result = try await service.fetchPosts(PostFetchRequest())
/// ```
public struct FilePostDataService: PostDataService {
    /// What ``path`` is for standard input.
    public static let standardInputPath = "-"

    /// The file, or `-` for standard input.
    public let path: String

    private let fileSystem: any FileSystemProtocol

    /// The path, as sync states and reports name it; `standard input` for `-`.
    public var source: String { path == Self.standardInputPath ? "standard input" : path }

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - path: The file, or `-` for standard input.
    ///   - fileSystem: Where the file is read from.
    public init(path: String, fileSystem: any FileSystemProtocol) {
        self.path = path
        self.fileSystem = fileSystem
    }

    public func fetchPosts(_ request: PostFetchRequest) async throws -> PostFetchResult {
        let name = path == Self.standardInputPath ? "standard input" : path
        guard !path.isEmpty else {
            throw PostStoreError(.invalidArgument, "The input file's path is empty.")
        }
        let data: Data
        do {
            if path == Self.standardInputPath {
                data = try fileSystem.contentsOfStandardInput()
            } else {
                guard let contents = try fileSystem.contentsOfFile(atPath: path) else {
                    throw PostStoreError(.sourceNotFound, "There is no input file at \(path).", path: path)
                }
                data = contents
            }
        } catch let error as PostStoreError {
            if (error.cause as? SystemError)?.code == EISDIR {
                throw PostStoreError(.sourceNotFound, "\(path) is a folder, not a file of posts.", path: path)
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
        let posts: [Post]
        do {
            posts = try PostPayload.decode(data)
        } catch {
            throw PostStoreError(
                .invalidData,
                "Cannot use the posts in \(name): \(error.message)",
                path: path == Self.standardInputPath ? nil : path,
                cause: error
            )
        }
        request.progress(.pageFetched(page: 1, posts: posts.count, fetchedSoFar: posts.count, expectedTotal: nil))
        return .posts(posts, etag: nil, pages: 1)
    }
}
