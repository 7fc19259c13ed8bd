import Foundation
import PostStore

/// The on-disk form of a ``JSONFilePostStore``: a human-readable JSON document.
///
/// ```json
/// {
///   "format": "poststore-json",
///   "formatVersion": 2,
///   "changes": {
///     "storeId": "3f1c09a2b7d4e655", "revision": 12, "floor": 0, "historyLimit": 1000000,
///     "postsDigest": "c…", "postRevisions": [[1, 12]], "tombstones": [[5, 7]], "writes": [[12, 3, 3]]
///   },
///   "syncStates": [ … ],
///   "posts": [
///     { "userId": 1, "id": 1, "title": "…", "body": "…" }
///   ]
/// }
/// ```
///
/// Posts are written in id order with JSONPlaceholder's key order. `changes` is the changes feed's bookkeeping
/// (``ChangeHistory``): `[id, revision]` pairs, and `[revision, first, last]` for what a write overwrote. Version 1
/// had no `changes`; such a file still opens, its token a digest of its posts, and the next write makes it version
/// 2. A reader refuses a document whose `format` is not `poststore-json` or whose `formatVersion` is newer than
/// ``currentVersion``.
///
/// The posts' digest tells a file edited by hand (or checked out from another commit) from one PostStore wrote:
/// when the posts no longer match it, the history does not describe them, so it is dropped and the store's identity
/// becomes that digest; every earlier token must then refetch.
enum JSONStoreDocument {
    /// The value of the document's `format` key.
    static let formatName = "poststore-json"

    /// The newest format version this build reads and the one it writes.
    static let currentVersion = 2

    private struct Header: Decodable {
        let format: String?
        let formatVersion: Int?
    }

    private struct Body: Decodable {
        let posts: [Post]
        let syncStates: [SyncState]?
        let changes: Changes?
    }

    /// The `changes` object of version 2.
    private struct Changes: Decodable {
        let storeId: String
        let revision: Int
        let floor: Int
        let historyLimit: Int
        let postsDigest: String
        let postRevisions: [[Int]]
        let tombstones: [[Int]]
        let writes: [[Int]]
    }

    /// Parses a document.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file, for messages.
    /// - Returns: The store's contents, and the format version the document records (1 to ``currentVersion``).
    /// - Throws: ``PostStoreError/Code/corruptStore`` or ``PostStoreError/Code/unsupportedVersion``.
    static func decode(
        _ data: Data,
        path: String
    ) throws(PostStoreError) -> (contents: StoreContents, formatVersion: Int) {
        func corrupt(_ reason: String, cause: (any Error & Sendable)? = nil) -> PostStoreError {
            PostStoreError(
                .corruptStore,
                "The JSON store \(path) is damaged or not a PostStore file. \(reason) It was left untouched.",
                path: path,
                cause: cause
            )
        }
        func decode<Part: Decodable>(_ part: Part.Type) throws(PostStoreError) -> Part {
            do {
                return try JSONDecoder().decode(part, from: data)
            } catch let error as DecodingError {
                throw corrupt(PostJSON.describe(error, in: data), cause: error)
            } catch {
                throw corrupt("It could not be decoded.", cause: error)
            }
        }
        if data.isEmpty { throw corrupt("The file is empty.") }
        let header = try decode(Header.self)
        guard header.format == formatName, let version = header.formatVersion, version >= 1 else {
            throw corrupt("It has no \"format\": \"\(formatName)\" and a \"formatVersion\" of 1 or more.")
        }
        guard version <= currentVersion else {
            throw PostStoreError(
                .unsupportedVersion,
                "The JSON store \(path) has format version \(version), newer than the \(currentVersion) this "
                    + "PostStore reads; upgrade PostStore to open it. It was left untouched.",
                path: path
            )
        }
        let body = try decode(Body.self)
        var contents = StoreContents()
        for (index, post) in body.posts.enumerated() {
            guard !contents.posts.contains(post.id) else {
                throw corrupt("The post at index \(index) repeats id \(post.id).")
            }
            contents.posts.upsert(post)
        }
        for (index, state) in (body.syncStates ?? []).enumerated() {
            guard contents.syncStates.updateValue(state, forKey: .init(state.source)) == nil else {
                throw corrupt("The sync state at index \(index) repeats the source \"\(state.source)\".")
            }
        }
        let digest = contents.postsDigest
        guard version >= 2 else {
            contents.history = ChangeHistory(storeID: digest)
            return (contents, version)
        }
        guard let changes = body.changes else { throw corrupt("It has no \"changes\".") }
        guard changes.postsDigest == digest else {
            // Edited outside PostStore: the history no longer describes the posts.
            contents.history = ChangeHistory(storeID: digest, revision: changes.revision, limit: changes.historyLimit)
            return (contents, version)
        }
        guard let history = history(of: changes), history.isConsistent(withPostIds: contents.posts.contains)
        else { throw corrupt("Its \"changes\" disagree with themselves or with its posts.") }
        contents.history = history
        return (contents, version)
    }

    /// The history a `changes` object records, or `nil` when it is malformed.
    private static func history(of changes: Changes) -> ChangeHistory? {
        func pairs(_ rows: [[Int]]) -> [Int: Int]? {
            guard rows.allSatisfy({ $0.count == 2 }) else { return nil }
            return try? Dictionary(rows.map { ($0[0], $0[1]) }) { _, _ in throw RepeatedKey() }
        }
        guard ChangeToken("\(changes.storeId)-0") != nil, changes.revision >= 0,
            let postRevisions = pairs(changes.postRevisions), let tombstones = pairs(changes.tombstones),
            changes.writes.allSatisfy({ $0.count == 3 && $0[1] <= $0[2] }),
            let writes = try? Dictionary(
                changes.writes.map { ($0[0], $0[1]...$0[2]) },
                uniquingKeysWith: { _, _ in throw RepeatedKey() }
            )
        else { return nil }
        return ChangeHistory(
            storeID: changes.storeId,
            revision: changes.revision,
            floor: changes.floor,
            postRevisions: postRevisions,
            tombstones: tombstones,
            writes: writes,
            limit: changes.historyLimit
        )
    }

    private struct RepeatedKey: Error {}

    /// Writes the contents as a document of the current version.
    static func encode(_ contents: StoreContents) -> Data {
        var writer = JSONWriter()
        writer.raw("{\n  ")
        writer.key("format")
        writer.string(formatName)
        writer.raw(",\n  ")
        writer.key("formatVersion")
        writer.integer(currentVersion)
        writer.raw(",\n  ")
        writer.changes(contents.history, postsDigest: contents.postsDigest)
        writer.raw(",\n  ")
        writer.key("syncStates")
        writer.raw("[")
        for (index, state) in contents.orderedSyncStates.enumerated() {
            writer.raw(index == 0 ? "\n    " : ",\n    ")
            writer.syncState(state)
        }
        writer.raw(contents.syncStates.isEmpty ? "],\n  " : "\n  ],\n  ")
        writer.key("posts")
        writer.raw("[")
        var separator = "\n    "
        contents.posts.forEachInIdOrder { post in
            writer.raw(separator)
            writer.post(userId: post.userId, id: post.id, title: post.title, body: post.body, indent: "    ")
            separator = ",\n    "
        }
        writer.raw(contents.posts.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return Data(writer.bytes)
    }
}
