/// A position in a store's history of writes: what ``PostStoreProtocol/changes(since:limit:)`` answers from.
///
/// A token names the store it came from and a revision of it (the count of its writes that changed posts), and is
/// sent as text: keep it as ``description`` and read it back with ``init(_:)``. Treat the text as opaque. A token
/// is answered only by the store that made it, and only while it lies within that store's change history: a token
/// of another store (or of a store deleted and made again at the same place), from before the history a store keeps
/// or from ahead of it (a store restored from an older copy) gets ``PostStoreError/Code/mustRefetch``, never a wrong
/// answer.
///
/// For example:
///
/// ```swift
/// let first = try await store.changes(since: nil)         // every post, and the token of that state
/// // … later …
/// let next = try await store.changes(since: first.next)   // only what changed since
/// ```
public struct ChangeToken: Sendable, Hashable, Codable, LosslessStringConvertible {
    /// The store's identity: random for a store that counts its writes, a digest of the posts for one that does not.
    package let storeID: String
    /// The store's revision: how many writes had changed its posts.
    package let revision: Int

    /// A token of a store's revision.
    ///
    /// - Parameters:
    ///   - storeID: Letters and digits only.
    ///   - revision: Zero or more.
    package init(storeID: String, revision: Int) {
        precondition(Self.isValidStoreID(storeID) && revision >= 0, "A change token needs an id and a revision ≥ 0")
        self.storeID = storeID
        self.revision = revision
    }

    /// Reads a token from its text, ``description``.
    ///
    /// - Parameter description: The token's text, as a store or a server gave it.
    /// - Returns: `nil` when the text is not a token.
    public init?(_ description: String) {
        guard let dash = description.utf8.lastIndex(of: UInt8(ascii: "-")),
            case let storeID = String(description[..<dash]), Self.isValidStoreID(storeID),
            case let digits = description[description.index(after: dash)...], !digits.isEmpty, digits.count <= 18,
            digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let revision = Int(digits)
        else { return nil }
        self.init(storeID: storeID, revision: revision)
    }

    /// The token as text: the store's id, a dash and the revision, such as `3f1c09a2b7d4e655-42`.
    public var description: String { "\(storeID)-\(revision)" }

    /// Reads the token from its text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let token = ChangeToken(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Not a change token: \(text)")
            )
        }
        self = token
    }

    /// Writes the token as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Letters and digits, 1 to 64 of them: what every engine's store id is made of.
    private static func isValidStoreID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
    }
}
