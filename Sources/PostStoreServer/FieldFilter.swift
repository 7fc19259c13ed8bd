import PostStore

/// One of json-server's field filters that a ``PostQuery`` cannot say, applied by the server to the posts the
/// store selects: `title=` and `body=`, and `_gte`, `_lte`, `_ne` or `_like` after any of the four fields' names
/// (`id=` and `userId=` go to the store's query).
///
/// json-server's meanings, with two deliberate differences: a value that must be a number and is not one is a 400
/// (json-server then matches nothing), and `_like` is a case-insensitive substring, compared as `TextSearch`
/// compares one term (spaces included), where json-server compiles the value as a regular expression: a pattern's
/// characters match themselves here, and no request can make the server backtrack through a long body.
struct FieldFilter: Sendable, Equatable {
    /// A post's field.
    enum Field: String, Sendable, CaseIterable {
        case id, userId, title, body
    }

    /// How a field is compared with the values.
    enum Comparison: String, Sendable, CaseIterable {
        /// Equal to one of the values (text byte for byte).
        case equal = ""
        /// Different from every value.
        case notEqual = "_ne"
        /// At least one of the values: numbers by value, text by Unicode code point.
        case atLeast = "_gte"
        /// At most one of the values.
        case atMost = "_lte"
        /// Holding one of the values, case-insensitively (numbers as their decimal digits).
        case like = "_like"
    }

    /// The field compared.
    let field: Field
    /// How it is compared.
    let comparison: Comparison
    /// The values, in the request's order: numbers for `id` and `userId` (but with `_like`), else text.
    let values: [String]

    /// The filter a parameter names, or `nil` when the name is not a field with an optional comparison.
    ///
    /// - Parameters:
    ///   - name: The parameter's name, such as `title_like`.
    ///   - values: Its values (a parameter may repeat).
    /// - Throws: ``APIError`` (400) when a number's value is not a whole number.
    init?(name: String, values: [String]) throws(APIError) {
        let comparison = Comparison.allCases.first { $0 != .equal && name.hasSuffix($0.rawValue) } ?? .equal
        guard let field = Field(rawValue: String(name.dropLast(comparison.rawValue.count))) else { return nil }
        if field == .id || field == .userId, comparison != .like {
            for value in values { _ = try PostListRequest.integer(value, name) }
        }
        self.field = field
        self.comparison = comparison
        self.values = values
    }

    /// Whether a post passes: for `_ne` when it differs from every value, else when it matches one of them.
    func admits(_ post: Post) -> Bool {
        comparison == .notEqual
            ? values.allSatisfy { !matches(post, $0) } : values.contains { matches(post, $0) }
    }

    /// Whether the post's field compares with one value as `comparison` says (`notEqual` as `equal`).
    private func matches(_ post: Post, _ value: String) -> Bool {
        switch field {
        case .id: matches(post.id, value)
        case .userId: matches(post.userId, value)
        case .title: matches(post.title, value)
        case .body: matches(post.body, value)
        }
    }

    /// `value` is a whole number (checked when the filter was made) unless the comparison is `like`.
    private func matches(_ number: Int, _ value: String) -> Bool {
        switch comparison {
        case .equal, .notEqual: number == Int(value)!
        case .atLeast: number >= Int(value)!
        case .atMost: number <= Int(value)!
        case .like: matches(String(number), value)
        }
    }

    private func matches(_ text: String, _ value: String) -> Bool {
        switch comparison {
        case .equal, .notEqual: text.utf8.elementsEqual(value.utf8)
        case .atLeast: !text.utf8.lexicographicallyPrecedes(value.utf8)
        case .atMost: !value.utf8.lexicographicallyPrecedes(text.utf8)
        case .like: text.lowercased().containsCodePoints(of: value.lowercased())
        }
    }
}
