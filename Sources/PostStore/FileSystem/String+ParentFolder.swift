extension String {
    /// The folder part of a path: what comes before its last `/`, trailing slashes aside; `""` for a bare name and
    /// `"/"` for a name at the root.
    ///
    /// Foundation's `NSString.deletingLastPathComponent` crashes on Linux for a one-character relative path (seen
    /// with Swift 6.3's Foundation), so PostStore cuts paths by hand.
    ///
    /// Cut at bytes: a `/` followed by a combining mark is one `Character`, `"/\u{301}"`, which is not `"/"`, but the
    /// file system sees a slash.
    package var parentFolderPath: String {
        let slash = UInt8(ascii: "/")
        var trimmed = Substring(self).utf8
        while trimmed.count > 1, trimmed.last == slash { trimmed.removeLast() }
        guard let last = trimmed.lastIndex(of: slash) else { return "" }
        return last == trimmed.startIndex ? "/" : String(Substring(trimmed[..<last]))
    }

    /// Whether the path starts at the root: its first byte is `/` (whatever combining mark follows it).
    package var isAbsolutePath: Bool {
        utf8.first == UInt8(ascii: "/")
    }

    /// The path's folder and the name after its last `/` byte; `nil` when it has no `/`.
    var folderAndName: (folder: Substring, name: Substring)? {
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return (Substring(utf8[..<slash]), Substring(utf8[utf8.index(after: slash)...]))
    }

    /// The folder that holds the path's name, as a path to open (`"."` for a bare name, `"/"` at the root), and the
    /// name.
    package var folderPathAndName: (folder: String, name: String) {
        guard let (folder, name) = folderAndName else { return (".", self) }
        return (folder.isEmpty ? "/" : String(folder), String(name))
    }

    /// The path of `name` relative to this path's folder (how a symbolic link's relative target is read).
    package func siblingPath(_ name: String) -> String {
        let folder = parentFolderPath
        return folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
    }
}
