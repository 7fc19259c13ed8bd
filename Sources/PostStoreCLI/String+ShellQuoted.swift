extension String {
    /// The text as one word of a POSIX shell command line: as it is when it holds only characters no shell treats
    /// specially, else in single quotes (a quote inside written `'\''`). Advice that names a path or a store spec
    /// then works when pasted, whatever the path holds.
    ///
    /// For example:
    ///
    /// ```swift
    /// "sqlite:posts.sqlite".shellQuoted  // sqlite:posts.sqlite
    /// "my posts/x.sqlite".shellQuoted  // 'my posts/x.sqlite'
    /// ```
    var shellQuoted: String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-".unicodeScalars)
        if !isEmpty, unicodeScalars.allSatisfy(plain.contains) { return self }
        return "'" + replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
