extension String {
    /// The folder part of a path: what comes before its last `/`, trailing slashes aside; `""` for a bare name and
    /// `"/"` for a name at the root.
    ///
    /// Foundation's `NSString.deletingLastPathComponent` crashes on Linux for a one-character relative path (seen
    /// with Swift 6.3's Foundation), so PostStore cuts paths by hand.
    package var parentFolderPath: String {
        var trimmed = Substring(self)
        while trimmed.utf8.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The path of `name` relative to this path's folder (how a symbolic link's relative target is read).
    package func siblingPath(_ name: String) -> String {
        let folder = parentFolderPath
        return folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
    }
}
