import Foundation
import PostStore

/// The on-disk form of a ``JSONFilePostStore``: a human-readable JSON document.
///
/// ```json
/// {
///   "format": "poststore-json",
///   "formatVersion": 1,
///   "syncStates": [ … ],
///   "posts": [
///     { "userId": 1, "id": 1, "title": "…", "body": "…" }
///   ]
/// }
/// ```
///
/// Posts are written in id order with JSONPlaceholder's key order. A reader refuses a document whose `format` is
/// not `poststore-json` or whose `formatVersion` is newer than ``currentVersion``.
enum JSONStoreDocument {
    /// The value of the document's `format` key.
    static let formatName = "poststore-json"

    /// The newest format version this build reads and the one it writes.
    static let currentVersion = 1

    private struct Header: Decodable {
        let format: String?
        let formatVersion: Int?
    }

    private struct Body: Decodable {
        let posts: [Post]
        let syncStates: [SyncState]?
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
        contents.posts.reserveCapacity(body.posts.count)
        for (index, post) in body.posts.enumerated() {
            guard contents.posts.updateValue(post, forKey: post.id) == nil else {
                throw corrupt("The post at index \(index) repeats id \(post.id).")
            }
        }
        for (index, state) in (body.syncStates ?? []).enumerated() {
            guard contents.syncStates.updateValue(state, forKey: .init(state.source)) == nil else {
                throw corrupt("The sync state at index \(index) repeats the source \"\(state.source)\".")
            }
        }
        return (contents, version)
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
        writer.key("syncStates")
        writer.raw("[")
        for (index, state) in contents.orderedSyncStates.enumerated() {
            writer.raw(index == 0 ? "\n    " : ",\n    ")
            writer.syncState(state)
        }
        writer.raw(contents.syncStates.isEmpty ? "],\n  " : "\n  ],\n  ")
        writer.key("posts")
        writer.raw("[")
        for (index, id) in contents.posts.keys.sorted().enumerated() {
            writer.raw(index == 0 ? "\n    " : ",\n    ")
            writer.post(contents.posts[id]!, indent: "    ")
        }
        writer.raw(contents.posts.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return Data(writer.bytes)
    }
}
