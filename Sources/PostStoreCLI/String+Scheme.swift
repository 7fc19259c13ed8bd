extension String {
    /// The scheme this text starts with, as in `ftp:x` or `sqlite:posts.db`: the part before the first `:` when it
    /// is two characters or more and holds no `/`. (A single letter is a Windows drive, and a `/` makes it a path.)
    var scheme: Substring? {
        guard let colon = firstIndex(of: ":") else { return nil }
        let scheme = self[..<colon]
        return scheme.count > 1 && !scheme.contains("/") ? scheme : nil
    }
}
