public import Foundation

/// The one error every PostStore API throws.
///
/// Match on ``code`` to decide what to do; ``message`` is written for the person reading it and may change between
/// releases. ``path`` names the file involved, when there is one, and ``cause`` keeps the underlying error (an
/// SQLite result code, a `DecodingError`, an `errno`).
///
/// For example:
///
/// ```swift
/// do {
///     let store = try SQLitePostStore(path: "posts.sqlite", mode: .openExisting)
///     print(try await store.count())
/// } catch let error as PostStoreError where error.code == .storeNotFound {
///     print("Run a sync first:", error.message)
/// }
/// ```
public struct PostStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added; match the ones you act on.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case storeNotFound, corruptStore, unsupportedVersion, migrationMismatch, ioFailure, storeBusy
            case constraintViolation, tooManyDeletions, invalidQuery, invalidArgument, invalidData
            case sourceNotFound, sourceUnavailable, missingDependency, storeUnavailable, accessDenied, mustRefetch
            case checkpointMoved, postChanged
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The store (a file; on a database server, its schema or database) does not exist and the caller asked to
        /// open an existing one.
        public static let storeNotFound = Code(.storeNotFound)
        /// The store's file is damaged, or is not a PostStore store at all. It is never written over.
        public static let corruptStore = Code(.corruptStore)
        /// The store was written by a newer PostStore: a newer schema or file-format version.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// A migration applied to the store differs from the one this build carries.
        public static let migrationMismatch = Code(.migrationMismatch)
        /// Reading or writing a file failed (permissions, full disk, a missing folder, …).
        public static let ioFailure = Code(.ioFailure)
        /// Another process kept the store locked for longer than the busy timeout.
        public static let storeBusy = Code(.storeBusy)
        /// A write would break a rule of the store, for example two posts with the same id in one batch.
        public static let constraintViolation = Code(.constraintViolation)
        /// A write (a sync's prune) would delete more posts than its ``DeletionLimit`` allows; nothing was written.
        public static let tooManyDeletions = Code(.tooManyDeletions)
        /// A query's arguments are out of range, for example a negative limit.
        public static let invalidQuery = Code(.invalidQuery)
        /// Another argument cannot be used, for example an empty store path.
        public static let invalidArgument = Code(.invalidArgument)
        /// Data handed to PostStore is malformed: not UTF-8, not JSON, or records of the wrong shape.
        public static let invalidData = Code(.invalidData)
        /// A data service's source does not exist: a missing input file (or a folder), or a URL that answered
        /// `404 Not Found` or `410 Gone`.
        public static let sourceNotFound = Code(.sourceNotFound)
        /// A data service could not get the posts: the connection failed, timed out, or the server answered with an
        /// error status (after any retries).
        public static let sourceUnavailable = Code(.sourceUnavailable)
        /// A store on a database server could not be reached or stopped answering: the connection was refused or
        /// lost, timed out, or the server was shutting down (after any retries). Nothing was half-written.
        public static let storeUnavailable = Code(.storeUnavailable)
        /// A database server refused the login or the store's schema to this user (a wrong password, a missing
        /// privilege).
        public static let accessDenied = Code(.accessDenied)
        /// A store cannot tell the changes since a ``ChangeToken``: the token comes from another store (or from one
        /// deleted and made again at the same place), from before the change history the store keeps, or from
        /// ahead of it. Fetch every post again; ``SyncService`` does so by itself.
        public static let mustRefetch = Code(.mustRefetch)
        /// A sync by changes found the store's checkpoint for its source moved since it read it (another sync of the
        /// same source committed first, or a write changed posts); nothing was written. ``SyncService`` reads the
        /// checkpoint again and goes on from it.
        public static let checkpointMoved = Code(.checkpointMoved)
        /// A write found a post it requires (``PostChangeSet/requiredPosts``) changed since it was read: another
        /// writer came first; nothing was written. Read the post again, and decide again.
        public static let postChanged = Code(.postChanged)
        /// A `DependencyStore` (`PostStoreContainer`) has nothing registered for a type it was asked for (the message names the type
        /// and what is registered), or its factories depend on each other in a cycle.
        public static let missingDependency = Code(.missingDependency)

        /// The code's name, for example `corruptStore`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code

    /// What failed and, where it helps, how to fix it; one line, for a person.
    public let message: String

    /// The file involved, if any.
    public let path: String?

    /// The underlying error, if any.
    public let cause: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What failed, for a person.
    ///   - path: The file involved, if any.
    ///   - cause: The underlying error, if any.
    public init(_ code: Code, _ message: String, path: String? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// The code, the message and the underlying cause when there is one, for logs; show people ``message``.
    public var description: String {
        guard let cause else { return "\(code): \(message)" }
        return "\(code): \(message) (\(cause))"
    }
}

/// `localizedDescription` is ``PostStoreError/message``, so an app shows the message without a cast (without it,
/// Foundation gives "The operation could not be completed. (PostStore.PostStoreError error 1.)").
extension PostStoreError: LocalizedError {
    /// ``message``.
    public var errorDescription: String? { message }
}
