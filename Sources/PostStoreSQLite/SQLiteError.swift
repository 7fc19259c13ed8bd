import Foundation
import PostStore
import PostStoreCSQLite

/// A failed SQLite call: the extended result code and SQLite's own message.
///
/// Kept as the `PostStoreError/cause` of the `PostStoreError` that ``SQLitePostStore`` throws.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code, for example `SQLITE_BUSY` (5) or `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public let extendedCode: Int32

    /// SQLite's message for the failure.
    public let message: String

    /// The primary result code: the low byte of ``extendedCode``.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// Whether a virtual table (the FTS5 search index) found its data inconsistent: `SQLITE_CORRUPT_VTAB`.
    var isCorruptVirtualTable: Bool { extendedCode == SQLITE_CORRUPT | (1 << 8) }

    /// Creates an error from a result code and a message.
    ///
    /// - Parameters:
    ///   - extendedCode: The extended result code.
    ///   - message: SQLite's message.
    public init(extendedCode: Int32, message: String) {
        self.extendedCode = extendedCode
        self.message = message
    }

    /// For example "SQLite error 5: database is locked".
    public var description: String { "SQLite error \(extendedCode): \(message)" }

    /// Why the file system refuses this process the store's file, in its words ("Permission denied", "Not a
    /// directory"), or `nil` when it does not: SQLite's own "unable to open database file" says neither.
    private static func fileSystemRefusal(of path: String) -> String? {
        guard access(path, R_OK | W_OK) != 0, errno != ENOENT else { return nil }
        return String(cString: strerror(errno))
    }

    /// The ``PostStoreError`` a caller sees, with a code chosen from the SQLite result code.
    func postStoreError(path: String) -> PostStoreError {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            PostStoreError(
                .storeBusy,
                "The SQLite store \(path) stayed locked by another connection longer than the busy timeout.",
                path: path,
                cause: self
            )
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            PostStoreError(
                .corruptStore,
                "The SQLite store \(path) is damaged or not a database: \(message). It was left untouched.",
                path: path,
                cause: self
            )
        case SQLITE_CONSTRAINT:
            PostStoreError(
                .constraintViolation,
                "A write to \(path) broke a rule: \(message).",
                path: path,
                cause: self
            )
        case SQLITE_TOOBIG:
            PostStoreError(
                .invalidData,
                "A title or body is larger than SQLite stores (by default 1,000,000,000 bytes); nothing was written.",
                path: path,
                cause: self
            )
        case SQLITE_FULL:
            PostStoreError(
                .ioFailure,
                "The disk holding \(path) is full; the unfinished write was not applied.",
                path: path,
                cause: self
            )
        case SQLITE_CANTOPEN:
            PostStoreError(
                .ioFailure,
                "SQLite cannot open the store \(path): \(Self.fileSystemRefusal(of: path) ?? message).",
                path: path,
                cause: self
            )
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            PostStoreError(
                .ioFailure,
                "SQLite cannot write to the store \(path) or its folder (in WAL mode it must, even to read): "
                    + "\(message).",
                path: path,
                cause: self
            )
        default:
            PostStoreError(
                .ioFailure,
                "Reading or writing the SQLite store \(path) failed: \(message) (SQLite error \(extendedCode)); an "
                    + "unfinished write was not applied.",
                path: path,
                cause: self
            )
        }
    }
}
