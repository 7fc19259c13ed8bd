extension String {
    /// The scheme this text starts with, as in `ftp:x` or `sqlite:posts.db`: the part before the first `:` when it
    /// is two bytes or more and holds no `/`. (A single letter is a Windows drive, and a `/` makes it a path.)
    ///
    /// Decided on UTF-8 bytes: a `:` or `/` followed by a combining mark is part of a larger `Character`, which
    /// `firstIndex(of: ":")` and `contains("/")` would not find.
    package var scheme: Substring? {
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = utf8[..<colon]
        return scheme.count > 1 && !scheme.contains(UInt8(ascii: "/")) ? Substring(scheme) : nil
    }

    /// The text after `prefix` when the text starts with it, ASCII letters in either case (`SQLite:` for
    /// `sqlite:`), else `nil`. Compared byte for byte: `hasPrefix` would miss `sqlite:` followed by a combining mark
    /// (the `:` and the mark are one `Character`), and `lowercased()` may change the length of what follows.
    ///
    /// - Parameter prefix: Lowercase ASCII, such as `sqlite:`.
    package func afterCaseInsensitivePrefix(_ prefix: String) -> Substring? {
        let bytes = utf8
        guard bytes.count >= prefix.utf8.count else { return nil }
        let asciiLowercased = { (byte: UInt8) in (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        guard zip(bytes, prefix.utf8).allSatisfy({ asciiLowercased($0) == $1 }) else { return nil }
        return Substring(bytes.dropFirst(prefix.utf8.count))
    }
}
