/// Which store: an engine and, for an engine that keeps a file, its path.
///
/// The composition root (`PostStoreLive`) parses the spellings users type — `sqlite:PATH`, `json:PATH`,
/// `memory:`, or a path whose extension names the engine — into a spec, and opens it.
///
/// For example:
///
/// ```swift
/// let spec = StoreSpec(.inMemory)
/// // spec.description == "memory:"
/// ```
public struct StoreSpec: Sendable, Hashable, CustomStringConvertible {
    /// The engine.
    public let engine: StoreEngine
    /// The store's file; `nil` for an engine without files.
    public let path: String?

    /// A store of an engine that keeps a file.
    ///
    /// - Parameters:
    ///   - engine: The engine; its ``StoreEngine/storesInFile`` must be `true`.
    ///   - path: The store's file.
    public init(_ engine: StoreEngine, path: String) {
        precondition(engine.storesInFile, "The \(engine) engine keeps no file: use StoreSpec(.\(engine)).")
        self.engine = engine
        self.path = path
    }

    /// A store of an engine without files, such as ``StoreEngine/inMemory``.
    ///
    /// - Parameter engine: The engine; its ``StoreEngine/storesInFile`` must be `false`.
    public init(_ engine: StoreEngine) {
        precondition(!engine.storesInFile, "The \(engine) engine keeps a file: use StoreSpec(.\(engine), path:).")
        self.engine = engine
        self.path = nil
    }

    /// The spec as a user writes it: `sqlite:posts.sqlite`, `memory:`.
    public var description: String { engine.scheme + ":" + (path ?? "") }

    /// The same engine at another path: a store built in a staging folder.
    package func atPath(_ path: String) -> StoreSpec {
        StoreSpec(engine, path: path)
    }
}
