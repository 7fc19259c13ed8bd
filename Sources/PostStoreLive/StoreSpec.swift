public import PostStoreEngines

/// Which store: an engine and, for an engine that keeps a file, its path, or for one on a database server, its URL.
///
/// The composition root (`PostStoreLive`) parses the spellings users type — `sqlite:PATH`, `json:PATH`,
/// `postgres://HOST/DB`, `memory:`, or a path whose extension names the engine — into a spec, and opens it.
/// In code, each engine is named as its scheme is on the command line: `StoreSpec(.sqlite, path: "posts.sqlite")`
/// is `sqlite:posts.sqlite`, `StoreSpec(.json, path: "posts.json")` is `json:posts.json`, `StoreSpec(.memory)` is
/// `memory:`, and `StoreSpec(.postgres, url: "postgres://app@db.local/shop")` is that URL.
///
/// For example:
///
/// ```swift
/// let spec = StoreSpec(.memory)
/// // spec.description == "memory:"
/// ```
public struct StoreSpec: Sendable, Hashable, CustomStringConvertible {
    /// The engine.
    public let engine: StoreEngine
    /// The store's file; `nil` for an engine without files.
    public var path: String? { engine.storesInFile ? location : nil }

    /// The store's file or URL, as the engine opens it; `nil` for an engine with neither (in memory).
    package let location: String?

    /// A store of an engine that keeps a file.
    ///
    /// - Parameters:
    ///   - engine: The engine; its `StoreEngine.storesInFile` must be `true`.
    ///   - path: The store's file.
    public init(_ engine: StoreEngine, path: String) {
        precondition(engine.storesInFile, "The \(engine) engine keeps no file: use StoreSpec(.\(engine)).")
        self.engine = engine
        self.location = path
    }

    /// A store on a database server, such as PostgreSQL's.
    ///
    /// - Parameters:
    ///   - engine: The engine; its stores must be on a server.
    ///   - url: The store's URL, starting with the engine's scheme (`postgres://poststore@db.local/app`).
    public init(_ engine: StoreEngine, url: String) {
        precondition(engine.locationKind == .serverURL, "The \(engine) engine's stores have no URL.")
        self.engine = engine
        self.location = url
    }

    /// A store of an engine without files, such as `StoreEngine.memory`.
    ///
    /// - Parameter engine: The engine; its `StoreEngine.storesInFile` must be `false`.
    public init(_ engine: StoreEngine) {
        precondition(engine.locationKind == .none, "The \(engine) engine's stores have a location.")
        self.engine = engine
        self.location = nil
    }

    /// The spec as a user writes it, a server's password left out: `sqlite:posts.sqlite`, `memory:`,
    /// `postgres://poststore@db.local/app`.
    public var description: String {
        switch engine.locationKind {
        case .none: engine.scheme + ":"
        case .file: engine.scheme + ":" + (location ?? "")
        case .serverURL: engine.displayLocation(location ?? "")
        }
    }

    /// Where the store is, for `info` and messages: its path, its URL without a password, or the engine's name.
    package var displayLocation: String {
        location.map(engine.displayLocation) ?? engine.scheme
    }

    /// The same engine at another path: a store built in a staging folder.
    package func atPath(_ path: String) -> StoreSpec {
        StoreSpec(engine, path: path)
    }
}
