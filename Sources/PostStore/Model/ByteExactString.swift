/// A string that compares and hashes byte for byte (its UTF-8), where Swift's `String ==` takes canonically
/// equivalent text (`"é"` precomposed, `"e\u{301}"` decomposed) for equal.
///
/// A model that stores its text in one gets a synthesized `==` and `hash(into:)` with that semantics, so a field
/// added later cannot be left out of them.
package struct ByteExactString: Sendable, Hashable {
    /// The text.
    var value: String

    /// Wraps a string.
    ///
    /// - Parameter value: The text.
    package init(_ value: String) { self.value = value }

    package static func == (lhs: ByteExactString, rhs: ByteExactString) -> Bool {
        lhs.value.utf8.elementsEqual(rhs.value.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(Array(value.utf8))
    }
}
