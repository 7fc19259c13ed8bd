import Foundation
@_spi(FileSystem) import PostStore

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

    /// The document's values other than its posts.
    private struct Body: Decodable {
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
        let postRevisions: IntegerRows
        let tombstones: IntegerRows
        let writes: IntegerRows
    }

    /// The top-level keys read besides `posts`; any other is ignored.
    private static let decodedKeys: Set<String> = ["format", "formatVersion", "changes", "syncStates"]

    /// Reads a document a piece at a time (``PostDocumentReader``): its posts go straight into the contents'
    /// table, so memory never holds the whole file nor its posts as strings; the other values are decoded with
    /// `JSONDecoder` from a small document of their own. The format and version are checked when the posts begin
    /// (the document names them first), so a file of a newer version is refused before its posts are read.
    ///
    /// - Parameters:
    ///   - file: The file, open for reading.
    ///   - path: The file, for messages.
    /// - Returns: The store's contents, and the format version the document records (1 to ``currentVersion``).
    /// - Throws: ``PostStoreError/Code/corruptStore`` or ``PostStoreError/Code/unsupportedVersion``, and what the
    ///   file's reads throw.
    static func decode(
        _ file: any ReadableFile,
        path: String
    ) throws -> (contents: StoreContents, formatVersion: Int) {
        func corrupt(_ reason: String, cause: (any Error & Sendable)? = nil) -> PostStoreError {
            PostStoreError(
                .corruptStore,
                "The JSON store \(path) is damaged or not a PostStore file. \(reason) It was left untouched.",
                path: path,
                cause: cause
            )
        }
        var contents = StoreContents()
        if let size = file.size {
            // The text takes fewer bytes than its JSON, and a post at least 64 bytes of JSON. Room reserved and
            // never written to takes no memory.
            contents.posts.reserveCapacity(posts: size / 64, textBytes: size)
        }
        var values: [(key: String, json: [UInt8])] = []
        // Decoded when the posts begin (a file PostStore wrote names everything else first), so that what decoding
        // leaves behind is freed before the posts fill memory; decoded again at the end when keys follow the posts.
        var decoded: (fields: Fields, valueCount: Int)?
        let reader = PostDocumentReader(file: file, postsKey: "posts", batchSize: 1024)
        do {
            while let part = try reader.next() {
                switch part {
                case .value(let key, let json):
                    if decodedKeys.contains(key) { values.append((key, json)) }
                case .postsFollow:
                    decoded = (try fields(of: values, path: path, corrupt: corrupt), values.count)
                case .posts(let posts):
                    for post in posts {
                        guard !contents.posts.contains(post.id) else {
                            throw corrupt("The post at index \(contents.posts.count) repeats id \(post.id).")
                        }
                        contents.posts.upsert(post)
                    }
                }
            }
        } catch let error as PostStoreError where error.code == .invalidData {
            throw corrupt(error.message, cause: error)
        }
        let fields =
            try decoded.flatMap { $0.valueCount == values.count ? $0.fields : nil }
            ?? fields(of: values, path: path, corrupt: corrupt)
        guard decoded != nil else { throw corrupt("It has no \"posts\".") }
        let (version, body) = (fields.version, fields.body)
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
        guard let history = fields.history, history.isConsistent(withPostIds: contents.posts.contains)
        else { throw corrupt("Its \"changes\" disagree with themselves or with its posts.") }
        contents.history = history
        return (contents, version)
    }

    /// What a document holds besides its posts, decoded and checked.
    private struct Fields {
        /// The format version.
        let version: Int
        /// The values.
        let body: Body
        /// The history that `changes` records, when it is well formed.
        let history: ChangeHistory?
    }

    /// Decodes the values read with `JSONDecoder`, from a document of their own, and checks the format and version.
    private static func fields(
        of values: [(key: String, json: [UInt8])],
        path: String,
        corrupt: (String, (any Error & Sendable)?) -> PostStoreError
    ) throws(PostStoreError) -> Fields {
        let document = document(of: values)
        let version = try version(of: document, path: path, corrupt: corrupt)
        let body = try decode(Body.self, from: document, corrupt: corrupt)
        return Fields(version: version, body: body, history: body.changes.flatMap(history(of:)))
    }

    /// The values read, as a document of their own: `{"format": …, "formatVersion": …, …}`.
    private static func document(of values: [(key: String, json: [UInt8])]) -> Data {
        var bytes = Array("{".utf8)
        for (index, value) in values.enumerated() {
            var writer = JSONWriter()
            writer.key(value.key)
            bytes += (index == 0 ? [] : Array(", ".utf8)) + writer.bytes + value.json
        }
        return Data(bytes + Array("}".utf8))
    }

    /// The document's format version, checked: its `format` is ours and its version one this build reads.
    private static func version(
        of document: Data,
        path: String,
        corrupt: (String, (any Error & Sendable)?) -> PostStoreError
    ) throws(PostStoreError) -> Int {
        let header = try decode(Header.self, from: document, corrupt: corrupt)
        guard header.format == formatName, let version = header.formatVersion, version >= 1 else {
            throw corrupt("It has no \"format\": \"\(formatName)\" and a \"formatVersion\" of 1 or more.", nil)
        }
        guard version <= currentVersion else {
            throw PostStoreError(
                .unsupportedVersion,
                "The JSON store \(path) has format version \(version), newer than the \(currentVersion) this "
                    + "PostStore reads; upgrade PostStore to open it. It was left untouched.",
                path: path
            )
        }
        return version
    }

    /// Decodes part of a document with `JSONDecoder`, its errors told as the payload decoder tells them.
    private static func decode<Part: Decodable>(
        _ part: Part.Type,
        from document: Data,
        corrupt: (String, (any Error & Sendable)?) -> PostStoreError
    ) throws(PostStoreError) -> Part {
        do {
            return try JSONDecoder().decode(part, from: document)
        } catch let error as DecodingError {
            throw corrupt(PostJSON.describe(error, in: document), error)
        } catch {
            throw corrupt("It could not be decoded.", error)
        }
    }

    /// The history a `changes` object records, or `nil` when it is malformed.
    private static func history(of changes: Changes) -> ChangeHistory? {
        func pairs(_ rows: IntegerRows) -> [Int: Int]? {
            rows.dictionary(width: 2) { $0.last }
        }
        guard ChangeToken("\(changes.storeId)-0") != nil, changes.revision >= 0,
            let postRevisions = pairs(changes.postRevisions), let tombstones = pairs(changes.tombstones),
            let writes = changes.writes.dictionary(
                width: 3,
                value: { row in
                    let (first, last) = (row[row.startIndex + 1], row[row.startIndex + 2])
                    return first <= last ? first...last : nil
                }
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
