import ArgumentParser
import Foundation
import PostStore

/// Where the posts are kept, as `--store` spells it: `sqlite:PATH`, `json:PATH`, `memory:`, or a path whose
/// extension names the engine.
enum StoreSpec: Equatable, CustomStringConvertible {
    case sqlite(String)
    case json(String)
    case memory

    /// Parses a spec; an unknown scheme or extension is a usage error.
    init(parsing text: String) throws(ValidationError) {
        if let path = text.afterCaseInsensitivePrefix("sqlite:") {
            self = .sqlite(try Self.path(String(path), in: text))
        } else if let path = text.afterCaseInsensitivePrefix("json:") {
            self = .json(try Self.path(String(path), in: text))
        } else if let rest = text.afterCaseInsensitivePrefix("memory:") {
            guard rest.isEmpty else {
                throw ValidationError("The store \"\(text)\" is not valid: memory: takes no path.")
            }
            self = .memory
        } else if let scheme = text.scheme {
            throw ValidationError(
                "Unknown store scheme \"\(scheme):\" in \"\(text)\"; use sqlite:PATH, json:PATH or memory:."
            )
        } else {
            switch (text as NSString).pathExtension.lowercased() {
            case "sqlite", "sqlite3", "db": self = .sqlite(try Self.path(text, in: text))
            case "json": self = .json(try Self.path(text, in: text))
            default:
                throw ValidationError(
                    "Cannot tell the engine of store \"\(text)\" from its extension; use a path ending in .sqlite, "
                        + ".sqlite3, .db or .json, or write sqlite:PATH or json:PATH."
                )
            }
        }
    }

    /// The store to use: the option, else `$POSTSTORE_STORE`, else the default SQLite file.
    static func resolve(_ option: String?, environment: [String: String]) throws(ValidationError) -> StoreSpec {
        if let option { return try StoreSpec(parsing: option) }
        if let variable = environment["POSTSTORE_STORE"], !variable.isEmpty { return try StoreSpec(parsing: variable) }
        return .sqlite(defaultPath(environment: environment))
    }

    /// `$XDG_DATA_HOME/poststore/posts.sqlite`, else `~/.local/share/poststore/posts.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/poststore/posts.sqlite"
    }

    var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .json(let path): "json:\(path)"
        case .memory: "memory:"
        }
    }

    /// The engine's name, as `info` prints it.
    var engine: String {
        switch self {
        case .sqlite: "sqlite"
        case .json: "json"
        case .memory: "memory"
        }
    }

    /// The file, for the file engines.
    var path: String? {
        switch self {
        case .sqlite(let path), .json(let path): path
        case .memory: nil
        }
    }

    /// The composition root's spelling of this store.
    var configuration: PostStoreConfiguration.Store {
        switch self {
        case .sqlite(let path): .sqlite(path: path)
        case .json(let path): .jsonFile(path: path)
        case .memory: .inMemory
        }
    }

    private static func path(_ path: String, in text: String) throws(ValidationError) -> String {
        guard !path.isEmpty else { throw ValidationError("The store \"\(text)\" has no path.") }
        guard path.utf8.last != UInt8(ascii: "/") else {
            throw ValidationError(
                "The store \"\(text)\" ends with a slash, which names a folder; a store is a file: drop the slash."
            )
        }
        return path
    }
}
