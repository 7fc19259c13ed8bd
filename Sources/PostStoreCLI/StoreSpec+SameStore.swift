import Foundation
@_spi(FileSystem) import PostStore
import PostStoreLive

extension StoreSpec {
    /// Whether two specs name one store however each is spelled: the same engine, and the same file once symbolic
    /// links are followed and the path made absolute (`./posts.sqlite`, an absolute path, a link to it), or the same
    /// server location as messages show it (`postgresql://` for `postgres://`, a default schema spelled out).
    func namesSameStore(as other: StoreSpec) -> Bool {
        guard engine == other.engine else { return false }
        if let path, let otherPath = other.path { return Self.canonical(path) == Self.canonical(otherPath) }
        guard let location, let otherLocation = other.location else { return self == other }
        return engine.displayLocation(location) == engine.displayLocation(otherLocation)
    }

    /// The file a path names: its links followed, made absolute and standardized.
    private static func canonical(_ path: String) -> String {
        let resolved = (try? localFileSystem.resolvingSymbolicLinks(inPath: path)) ?? path
        return URL(fileURLWithPath: resolved).standardizedFileURL.path
    }
}
