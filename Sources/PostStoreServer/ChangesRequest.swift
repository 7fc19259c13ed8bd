import PostStore

/// A `GET /posts/_changes` request's parameters: the token to answer from, the most changes to answer, and how
/// long to hold the request while there is none.
///
/// - `since`: a token from an earlier answer or from `GET /posts`'s `PostStore-Changes-Token` header; without it,
///   every post (a whole copy) and the token of its state.
/// - `limit`: from 1 to 1,000,000 changes, 10,000 by default; an answer holds more when one write does.
/// - `wait`: seconds (a decimal number) to hold a request that has no change yet, answered as soon as a write
///   commits; up to the server's `maximumWait`, which a larger value gets; 0 (the default) answers at once.
/// - `_` (a cache buster) is ignored; any other parameter, and every bad value, is a 400.
struct ChangesRequest: Sendable, Equatable {
    /// The token answered from, or `nil` for a whole copy.
    var since: ChangeToken?
    /// The most changes to answer.
    var limit: Int
    /// How long to hold the request while there is no change.
    var wait: Duration

    /// The largest `limit` a request may give.
    static let maximumLimit = 1_000_000

    /// Reads a request's parameters.
    ///
    /// - Parameters:
    ///   - parameters: The query's parameters.
    ///   - maximumWait: The longest the server holds a request.
    /// - Throws: ``APIError`` (400) naming the parameter and what it takes.
    init(_ parameters: QueryParameters, maximumWait: Duration) throws(APIError) {
        if let name = parameters.names.first(where: { !["since", "limit", "wait", "_"].contains($0) }) {
            throw .badRequest("Unknown parameter \(name); /posts/_changes takes since, limit and wait.")
        }
        since = try parameters.value("since").map { text throws(APIError) in
            guard let token = ChangeToken(text) else {
                throw .badRequest(
                    "The parameter since is not a change token (got \"\(text)\"); give one from an earlier answer's "
                        + "next, or none for every post."
                )
            }
            return token
        }
        limit =
            try parameters.value("limit").map { text throws(APIError) in
                try PostListRequest.integer(text, "limit", from: 1, to: Self.maximumLimit)
            } ?? PostChanges.defaultLimit
        wait =
            try parameters.value("wait").map { text throws(APIError) in
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, text.allSatisfy({ $0.isASCII }) else {
                    throw .badRequest("The parameter wait must be a number of seconds, 0 or more (got \"\(text)\").")
                }
                return min(.milliseconds(Int64((min(seconds, 86_400) * 1000).rounded())), maximumWait)
            } ?? .zero
    }
}
