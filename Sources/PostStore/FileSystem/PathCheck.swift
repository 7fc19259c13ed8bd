/// Checks a path a caller gave before it reaches the system: the system reads a path up to its first NUL byte, so
/// `"posts.sqlite\u{0}.bak"` would silently name another file.
package enum PathCheck {
    /// Throws ``PostStoreError/Code/invalidArgument`` for an empty path or one containing a NUL character.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - what: What it names, for the message: "The SQLite store's path".
    package static func validate(_ path: String, naming what: String) throws(PostStoreError) {
        if path.isEmpty { throw PostStoreError(.invalidArgument, "\(what) is empty.") }
        if path.utf8.contains(0) {
            throw PostStoreError(.invalidArgument, "\(what) contains a NUL character, which no file name can hold.")
        }
    }
}
