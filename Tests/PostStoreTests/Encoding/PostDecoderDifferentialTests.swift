import Foundation
import PropertyBased
import Testing

@_spi(FileSystem) @testable import PostStore

/// `PostJSON`'s hand-written decoder checked against Foundation's `JSONDecoder`, the decoder it replaced.
///
/// Valid payloads are generated and written in the many ways JSON allows; corrupted ones are made from them by
/// deleting, inserting, replacing, swapping and duplicating bytes. Ours must read what `JSONDecoder` reads, as the
/// same posts, and refuse what it refuses; it may refuse more only where `PostJSON`'s documentation says so
/// (``DocumentedStrictness``). The streaming reader must agree with the whole-payload decoder byte for byte, and a
/// table pins each documented difference down on both decoders.
///
/// The corrupted payloads come from a fixed seed, so those tests fail or pass the same way on every run.
@Suite("The post decoder agrees with JSONDecoder")
struct PostDecoderDifferentialTests {
    // MARK: Generators

    /// Scalars that break naive string readers: NUL and other controls, quotes, backslash, slash, combining marks,
    /// the line and paragraph separators, a byte-order mark, noncharacters, emoji and the last scalar.
    static let specialScalars: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\"", "\\", "/", " ", "\u{7F}",
        "\u{80}", "\u{301}", "\u{308}", "é", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{D7FF}",
        "\u{E000}", "😀", "👍", "\u{1F3FD}", "\u{10000}", "\u{10FFFF}", "한",
    ]

    /// Any scalar: ASCII (controls included), one of ``specialScalars``, or any scalar up to U+10FFFF.
    static let scalar = zip(
        Gen.int(in: 0...9),
        Gen.int(in: 0...0x7F),
        Gen.int(in: 0...0x10FFFF),
        Gen.element(of: specialScalars)
    ).map { kind, ascii, any, special -> Unicode.Scalar in
        switch kind {
        case 0...3: Unicode.Scalar(UInt8(ascii))
        case 4...6: special ?? "a"
        default: Unicode.Scalar(UInt32(any)) ?? "\u{FFFD}"
        }
    }

    static let text = scalar.array(of: 0...12).map { String(String.UnicodeScalarView($0)) }

    /// Integers at the edges: of Int64, of the integers a Double holds exactly (2^53), and powers of ten.
    static let edgeIntegers: [Int] = [
        .min, .min + 1, .max, .max - 1, 0, 1, -1, 7, 10, 100, -100, 1 << 53, (1 << 53) - 1, (1 << 53) + 1,
        -(1 << 53) - 1, 12_345_678_901_234_567, 1_000_000_000_000_000_000, -1_000_000_000_000_000_000, 1 << 62,
        9_223_372_036_854_775_295,
    ]

    static let integer = zip(Gen.int(in: 0...3), Gen.int(), Gen.int(in: -1000...1000), Gen.element(of: edgeIntegers))
        .map { kind, any, small, edge -> Int in
            switch kind {
            case 0: any
            case 1: small
            default: edge ?? 0
            }
        }

    static let post = zip(integer, integer, text, text).map { userId, id, title, body in
        Post(userId: userId, id: id, title: title, body: body)
    }

    /// Up to six posts with distinct ids (a later post repeating an id is dropped).
    static let posts = post.array(of: 0...6).map(Self.withUniqueIds)

    /// One to three posts with short texts, ids often small (so a changed digit can repeat another post's id):
    /// payloads small enough that thousands of their mutants run in a second.
    static let smallPosts = zip(
        integer,
        zip(Gen.bool, Gen.int(in: 0...12), integer).map { isSmall, small, any in isSmall ? small : any },
        scalar.array(of: 0...5),
        scalar.array(of: 0...5)
    ).map { userId, id, title, body in
        Post(
            userId: userId,
            id: id,
            title: String(String.UnicodeScalarView(title)),
            body: String(String.UnicodeScalarView(body))
        )
    }.array(of: 1...3).map(Self.withUniqueIds)

    static func withUniqueIds(_ posts: [Post]) -> [Post] {
        var seen = Set<Int>()
        return posts.filter { seen.insert($0.id).inserted }
    }

    // MARK: 1. Valid payloads

    // `propertyCheck` drops an error its body throws (it counts only recorded issues), so the bodies below throw
    // nothing: every call that can throw goes through `recording`, which records the error as an issue.

    @Test("valid payloads, written every way JSON allows, decode to JSONDecoder's posts (arrays and lines)")
    func validPayloadsAgree() async {
        await propertyCheck(count: 300, input: Self.posts, Gen.uint64()) { posts, seed in
            // Hands the thread back between cases: the pool has one per core, and other suites time their waits.
            await Task.yield()
            var writer = VariedJSONWriter(seed: seed)
            for payload in [writer.encoded(posts), writer.array(posts)] {
                let shown = Self.render(payload)
                let ours = Self.recording("ours, payload \(shown)") { try Self.decode(payload).get() }
                let theirs = Self.recording("JSONDecoder, payload \(shown)") {
                    try JSONDecoder().decode([Post].self, from: Data(payload))
                }
                #expect(ours == theirs, "payload \(shown)")
                #expect(ours == posts, "payload \(shown)")
            }
            guard !posts.isEmpty else { return }
            for payload in [writer.encodedLines(posts), writer.lines(posts)] {
                let shown = Self.render(payload)
                let ours = Self.recording("ours, lines \(shown)") { try Self.decode(payload).get() }
                let theirs = Self.recording("JSONDecoder, lines \(shown)") { try Self.reference(payload).get() }
                #expect(ours == theirs, "lines \(shown)")
                #expect(ours == posts, "lines \(shown)")
            }
        }
    }

    /// What `body` returns, or `nil` with its error recorded as an issue.
    static func recording<T>(
        _ comment: @autoclosure () -> Comment,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> T
    ) -> T? {
        do {
            return try body()
        } catch {
            Issue.record(error, comment(), sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: 2. Corrupted payloads

    /// Where `PostJSON` refuses what `JSONDecoder` reads, on purpose and documented.
    enum DocumentedStrictness: String, CaseIterable {
        /// `[{…},]`, `{…,}`, also inside an ignored value.
        case trailingComma
        /// An invalid escape, a `\u` escape without four hexadecimal digits or a lone surrogate in an ignored value.
        case invalidEscapeInIgnoredValue
        /// A number with a leading zero (`01`, `-01`) in an ignored value.
        case leadingZeroInIgnoredValue
        /// A record naming one of the four keys twice: `JSONDecoder` takes the first.
        case fieldNamedTwice
        /// Two posts with one id: `JSONDecoder` has no such check.
        case repeatedId
        /// Anything else in an ignored value that is not JSON — a raw control character, invalid UTF-8, a malformed
        /// number — which `JSONDecoder` skips unchecked and Foundation's own `JSONSerialization` refuses.
        case invalidJSONInIgnoredValue
        /// An integer field holding a number with a non-zero fraction, which `JSONDecoder` rounds or truncates to
        /// an integer (`1.0000000000000001` → 1, `12345678901234567.9` → 12345678901234567).
        case fractionRoundedAway
    }

    @Test("corrupted payloads: what JSONDecoder refuses is refused, what ours reads JSONDecoder reads alike")
    func corruptedPayloadsAgree() async {
        var findings = Findings<Void>()
        var documented: [DocumentedStrictness: Int] = [:]
        var bothRefused = 0
        var bothRead = 0
        let mutants = Self.mutants(count: 3000, seed: 0x5EED_0001)
        for mutant in mutants {
            // Hands the thread back between cases: the pool has one per core, and other suites time their waits.
            await Task.yield()
            switch Self.verdict(on: mutant) {
            case .bothRead: bothRead += 1
            case .bothRefused: bothRefused += 1
            case .documented(let strictness): documented[strictness, default: 0] += 1
            case .disagreement(let kind, _): findings.add(kind, mutant, ())
            }
        }
        findings.report { payload, _ in
            guard case .disagreement(let kind, let detail) = Self.verdict(on: payload) else { return nil }
            return (kind, detail)
        }
        // The mutants reach every kind of outcome, so a broken generator cannot pass quietly.
        #expect(bothRefused > mutants.count / 2, "only \(bothRefused) of \(mutants.count) mutants refused by both")
        #expect(bothRead > mutants.count / 20, "only \(bothRead) of \(mutants.count) mutants read by both")
        #expect(documented.count >= 3, "documented refusals: \(documented)")
    }

    /// The one message that quotes the payload's own text names the keys of a payload that is one object.
    @Test("a refusal's message is one line, whatever keys the payload names")
    func refusalsAreOneLine() async {
        await propertyCheck(count: 100, input: Self.text.array(of: 1...3)) { keys in
            // Hands the thread back between cases: the pool has one per core, and other suites time their waits.
            await Task.yield()
            let object = Dictionary(keys.map { ($0, 1) }, uniquingKeysWith: { first, _ in first })
            let encoded = Result { try JSONEncoder().encode(object) }
            let error = #expect(throws: PostStoreError.self) { try PostJSON.decode(encoded.get()) }
            #expect(error?.code == .invalidData)
            #expect(error?.message.contains(where: \.isNewline) == false, "\(error?.message.debugDescription ?? "")")
        }
    }

    /// What a payload shows about the two decoders.
    enum Verdict {
        case bothRead
        case bothRefused
        /// Ours refuses what JSONDecoder reads, as documented.
        case documented(DocumentedStrictness)
        /// Anything else: its kind, to group payloads by, and what happened.
        case disagreement(kind: String, detail: String)
    }

    /// Decodes a payload with both decoders and compares: a refusal must be `invalidData` with a one-line message,
    /// and ours may refuse what `JSONDecoder` reads only as documented.
    static func verdict(on payload: [UInt8]) -> Verdict {
        let reference = reference(payload)
        switch (decode(payload), reference) {
        case (.failure(let error), _):
            if error.code != .invalidData || error.message.isEmpty || error.message.contains(where: \.isNewline) {
                return .disagreement(
                    kind: "a refusal that is not invalidData with a one-line message",
                    detail: "\(error)"
                )
            }
            guard case .success(let posts) = reference else { return .bothRefused }
            if let strictness = documentedStrictness(of: error, in: payload, referencePosts: posts) {
                return .documented(strictness)
            }
            return .disagreement(
                kind: "ours refuses what JSONDecoder reads, undocumented: "
                    + shape(of: specificMessage(for: error, in: payload)),
                detail: "ours: \(error.message) JSONDecoder: \(posts)"
            )
        case (.success(let posts), .success(let expected)):
            return posts == expected
                ? .bothRead
                : .disagreement(
                    kind: "ours reads other posts than JSONDecoder",
                    detail: "ours: \(posts) JSONDecoder: \(expected)"
                )
        case (.success(let posts), .failure(let error)):
            return .disagreement(
                kind: "ours reads what JSONDecoder refuses",
                detail: "ours: \(posts) JSONDecoder: \(String(describing: error).prefix(300))"
            )
        }
    }

    /// The message of ours' refusal, or for a payload refused as one JSON object, what is wrong with the object as
    /// a post: it is read as an array of that one object.
    static func specificMessage(for error: PostStoreError, in payload: [UInt8]) -> String {
        guard error.message.hasPrefix("The data is one JSON object") || error.message.hasPrefix("The data is an empty"),
            case .failure(let inArray) = decode(Array("[".utf8) + payload + Array("]".utf8))
        else { return error.message }
        return inArray.message
    }

    /// The documented reason ours refuses a payload `JSONDecoder` reads as `referencePosts`, if there is one.
    static func documentedStrictness(
        of error: PostStoreError,
        in payload: [UInt8],
        referencePosts: [Post]
    ) -> DocumentedStrictness? {
        let message = specificMessage(for: error, in: payload)
        if message.contains(" repeats id ") {
            return Set(referencePosts.map(\.id)).count < referencePosts.count ? .repeatedId : nil
        }
        if message.contains("\" appears twice") { return .fieldNamedTwice }
        if message.contains("invalid escape") || message.contains("lone surrogate")
            || message.contains("\\u escape needs four hexadecimal digits")
        {
            return .invalidEscapeInIgnoredValue
        }
        if message.contains("a number may not start with 0") { return .leadingZeroInIgnoredValue }
        if message.contains("must be an integer, found") { return .fractionRoundedAway }
        if message.contains("is not valid JSON") || message.contains("is not valid UTF-8"),
            !isJSONForJSONSerialization(payload)
        {
            return .invalidJSONInIgnoredValue
        }
        // A trailing comma: the refused byte closes an array or object right after a comma.
        if message.contains("found ']'") || message.contains("found '}'"),
            // Offsets in the message of the payload read as an array count its opening bracket.
            let offset = byteOffset(in: message).map({ message == error.message ? $0 : $0 - 1 }), offset >= 0,
            offset < payload.count,
            payload[offset] == UInt8(ascii: "]") || payload[offset] == UInt8(ascii: "}"),
            payload[..<offset].last(where: { !isWhitespace($0) }) == UInt8(ascii: ",")
        {
            return .trailingComma
        }
        return nil
    }

    // MARK: 3. Streaming equals whole

    /// The time limit catches a stream that never ends (a reader that stops making progress); it is ten times what
    /// the test takes under a sanitizer on a loaded machine, so slowness alone does not trip it.
    @Test(
        "valid payloads read through tiny reads and pieces give the whole payload's posts",
        .timeLimit(.minutes(15))
    )
    func validPayloadsStream() async {
        await propertyCheck(count: 120, input: Self.posts, Gen.uint64()) { posts, seed in
            // Hands the thread back between cases: the pool has one per core, and other suites time their waits.
            await Task.yield()
            var writer = VariedJSONWriter(seed: seed)
            var payload = posts.isEmpty || writer.percent(50) ? writer.array(posts) : writer.lines(posts)
            if writer.percent(30) { payload = [0xEF, 0xBB, 0xBF] + payload }
            let reading = ReadingPlan(&writer)
            let shown = Self.render(payload)
            let whole = Self.recording("whole, payload \(shown)") { try Self.decode(payload).get() }
            let streamed = Self.recording("streamed, payload \(shown), \(reading)") {
                try Self.stream(payload, reading).get()
            }
            #expect(whole == posts, "payload \(shown)")
            #expect(streamed == whole, "payload \(shown), \(reading)")
        }
    }

    @Test("corrupted payloads read through tiny reads and pieces fail with the whole payload's message")
    func corruptedPayloadsStream() async {
        var findings = Findings<ReadingPlan>()
        var random = Xoshiro(seed: (0x5EED_0002, 1, 2, 3))
        for var mutant in Self.mutants(count: 1500, seed: 0x5EED_0002) {
            await Task.yield()  // hands the thread back between cases, as above
            let reading = ReadingPlan(&random)
            // Offsets count a byte-order mark too.
            if Int.random(in: 0..<4, using: &random) == 0 { mutant = [0xEF, 0xBB, 0xBF] + mutant }
            if let (kind, _) = Self.streamingDisagreement(on: mutant, reading) {
                findings.add(kind, mutant, reading)
            }
        }
        findings.report(Self.streamingDisagreement)
    }

    /// How streaming `payload` as `reading` says differs from decoding it whole, if it does.
    static func streamingDisagreement(on payload: [UInt8], _ reading: ReadingPlan) -> (kind: String, detail: String)? {
        switch (decode(payload), stream(payload, reading)) {
        case (.success(let whole), .success(let streamed)):
            return whole == streamed
                ? nil : ("streaming reads other posts", "whole: \(whole) streamed (\(reading)): \(streamed)")
        case (.failure(let whole), .failure(let streamed)):
            return whole.message == streamed.message && whole.code == streamed.code
                ? nil
                : (
                    "streaming fails otherwise: \(shape(of: whole.message))",
                    "whole: \(whole.message) streamed (\(reading)): \(streamed.message)"
                )
        case (.success, .failure(let streamed)):
            return ("streaming refuses a payload read whole", "\(reading): \(streamed.message)")
        case (.failure(let whole), .success):
            return ("streaming reads a payload refused whole", "\(reading); whole: \(whole.message)")
        }
    }

    /// How a payload is streamed: the sizes of successive reads (cycled), the reader's piece and batch sizes.
    struct ReadingPlan: CustomStringConvertible {
        let readSizes: [Int]
        let pieceSize: Int
        let batchSize: Int

        fileprivate init(_ writer: inout VariedJSONWriter) {
            self.init(&writer.random)
        }

        init(_ random: inout Xoshiro) {
            readSizes = [[1], [2], [3], [7], [64], [1, 7, 2, 64, 3]].randomElement(using: &random)!
            pieceSize = [16, 17, 64].randomElement(using: &random)!
            batchSize = [1, 2, 3, 4096].randomElement(using: &random)!
        }

        var description: String { "reads of \(readSizes) bytes, pieces of \(pieceSize), batches of \(batchSize)" }
    }

    /// Reads a payload through ``PostPayloadReader`` as `reading` says, batch by batch.
    static func stream(_ payload: [UInt8], _ reading: ReadingPlan) -> Result<[Post], PostStoreError> {
        let reader = PostPayloadReader(
            file: TricklingReadableFile(payload, readSizes: reading.readSizes),
            pieceSize: reading.pieceSize,
            batchSize: reading.batchSize
        )
        var posts: [Post] = []
        do {
            while let batch = try reader.nextBatch() {
                #expect(!batch.isEmpty && batch.count <= reading.batchSize, "a batch of \(batch.count), \(reading)")
                posts += batch
            }
            return .success(posts)
        } catch let error as PostStoreError {
            return .failure(error)
        } catch {
            Issue.record("The reader threw \(error), not a PostStoreError")
            return .failure(PostStoreError(.invalidData, "\(error)"))
        }
    }

    // MARK: 4. Documented edge cases

    /// A decoder's expected answer to a payload.
    enum Expected: Sendable {
        case reads([Post])
        /// Refused; for ours, with `invalidData` and a message holding the fragment.
        case refuses(String)
    }

    struct EdgeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let payload: String
        let ours: Expected
        /// For newline-delimited JSON, `JSONDecoder` reading each non-blank line as a post.
        let jsonDecoder: Expected

        var testDescription: String { name }
    }

    /// `[{"userId": 1, "id": 7, "title": "t", "body": "b"` + `fields` + `}]`.
    private static func one(_ fields: String = "", id: String = "7") -> String {
        #"[{"userId": 1, "id": \#(id), "title": "t", "body": "b"\#(fields)}]"#
    }

    private static let seven = Post(userId: 1, id: 7, title: "t", body: "b")

    private static func post(id: Int) -> Post { Post(userId: 1, id: id, title: "t", body: "b") }

    /// A post whose id is spelled `spelling`, read by both decoders as `value`.
    private static func id(_ spelling: String, reads value: Int) -> EdgeCase {
        EdgeCase(
            name: "id \(spelling)",
            payload: one(id: spelling),
            ours: .reads([post(id: value)]),
            jsonDecoder: .reads([post(id: value)])
        )
    }

    /// A post whose id is spelled `spelling`, refused by both decoders.
    private static func id(_ spelling: String, refusedWith fragment: String) -> EdgeCase {
        EdgeCase(
            name: "id \(spelling)",
            payload: one(id: spelling),
            ours: .refuses(fragment),
            jsonDecoder: .refuses("")
        )
    }

    static let edgeCases: [EdgeCase] = [
        // Documented: ours refuses what JSONDecoder reads.
        EdgeCase(
            name: "a raw tab in an ignored string",
            payload: one(", \"extra\": \"a\tb\""),
            ours: .refuses("a control character (U+0009) must be escaped in a string"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "an id whose fraction JSONDecoder rounds away",
            payload: one(id: "7.0000000000000001"),
            ours: .refuses(#"field "id" must be an integer, found 7.0000000000000001"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a trailing comma after the last post",
            payload: #"[{"userId": 1, "id": 7, "title": "t", "body": "b"},]"#,
            ours: .refuses("expected a value, found ']'"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a trailing comma after the last field",
            payload: one(","),
            ours: .refuses("expected a field name in quotes, found '}'"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a trailing comma in an ignored array",
            payload: one(#", "tags": [1, 2,]"#),
            ours: .refuses("expected a value, found ']'"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a trailing comma in an ignored object",
            payload: one(#", "meta": {"a": 1,}"#),
            ours: .refuses("expected a field name in quotes, found '}'"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a trailing comma on a line of newline-delimited JSON",
            payload: #"{"userId": 1, "id": 7, "title": "t", "body": "b",}"#,
            ours: .refuses("expected a field name in quotes, found '}'"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "an invalid escape in an ignored string",
            payload: one(#", "note": "\q""#),
            ours: .refuses(#"invalid escape '\q' in a string"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a \\u escape with a non-hexadecimal digit in an ignored string",
            payload: one(#", "note": "\u12G4""#),
            ours: .refuses("a \\u escape needs four hexadecimal digits"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "an invalid escape in a key of an ignored object",
            payload: one(#", "meta": {"\q": 1}"#),
            ours: .refuses(#"invalid escape '\q' in a string"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a lone high surrogate in an ignored string",
            payload: one(#", "note": "\ud800""#),
            ours: .refuses("a \\u escape holds a lone surrogate"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a lone low surrogate in an ignored string",
            payload: one(#", "note": "x\uDC00""#),
            ours: .refuses("a \\u escape holds a lone surrogate"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a high surrogate followed by another escape in an ignored string",
            payload: one(#", "note": "\ud800\u0041""#),
            ours: .refuses("a \\u escape holds a lone surrogate"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a leading zero in an ignored number",
            payload: one(#", "n": 01"#),
            ours: .refuses("a number may not start with 0"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a negative number with a leading zero in an ignored array",
            payload: one(#", "n": [-01.5]"#),
            ours: .refuses("a number may not start with 0"),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a field named twice (JSONDecoder takes the first)",
            payload: one(#", "id": 8"#),
            ours: .refuses(#"field "id" appears twice"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a text field named twice",
            payload: one(#", "title": "u""#),
            ours: .refuses(#"field "title" appears twice"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a field named twice, once through escapes",
            payload: one(#", "\u0075ser\u0049d": 2"#),
            ours: .refuses(#"field "userId" appears twice"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "a field named twice, the second with a value of the wrong type",
            payload: one(#", "body": null"#),
            ours: .refuses(#"field "body" appears twice"#),
            jsonDecoder: .reads([seven])
        ),
        EdgeCase(
            name: "two posts with one id",
            payload:
                #"[{"userId": 1, "id": 7, "title": "t", "body": "b"}, {"userId": 1, "id": 7, "title": "t", "body": "b"}]"#,
            ours: .refuses("The post at index 1 repeats id 7 of the post at index 0; ids must be unique."),
            jsonDecoder: .reads([seven, seven])
        ),
        // Both refuse: JSONDecoder checks what it decodes, so the differences above are only about ignored values.
        EdgeCase(
            name: "an invalid escape in the title",
            payload: #"[{"userId": 1, "id": 7, "title": "\q", "body": "b"}]"#,
            ours: .refuses(#"invalid escape '\q' in a string"#),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "a lone surrogate in the body",
            payload: #"[{"userId": 1, "id": 7, "title": "t", "body": "\udc00"}]"#,
            ours: .refuses("lone surrogate"),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "an invalid escape in an ignored key",
            payload: one(#", "\q": 1"#),
            ours: .refuses(#"invalid escape '\q' in a string"#),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "a leading zero in the id",
            payload: one(id: "07"),
            ours: .refuses("a number may not start with 0"),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "a control character in the title",
            payload: "[{\"userId\": 1, \"id\": 7, \"title\": \"a\u{1}\", \"body\": \"b\"}]",
            ours: .refuses("a control character (U+0001) must be escaped in a string"),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "two commas",
            payload: #"[{"userId": 1, "id": 7, "title": "t", "body": "b"},,]"#,
            ours: .refuses("expected a value, found ','"),
            jsonDecoder: .refuses("")
        ),
        // Integer spellings JSONDecoder reads as whole numbers: ours reads the same number.
        id("1.0", reads: 1),
        id("1e2", reads: 100),
        id("1E+2", reads: 100),
        id("-0", reads: 0),
        id("0e5", reads: 0),
        id("12345678901234567.0", reads: 12_345_678_901_234_567),  // Beyond 2^53: no Double holds it.
        id("9223372036854775807", reads: .max),
        id("-9223372036854775808", reads: .min),
        // Numbers that are no Int64: both refuse.
        id("1.5", refusedWith: "must be an integer, found 1.5"),
        id("1e400", refusedWith: "must be an integer that fits in 64 bits, found 1e400"),
        id("9223372036854775808", refusedWith: "must be an integer that fits in 64 bits, found 9223372036854775808"),
        id("-9223372036854775809", refusedWith: "must be an integer that fits in 64 bits"),
        id("1.0000000000000002", refusedWith: "must be an integer, found 1.0000000000000002"),  // The Double after 1.
        // Newline-delimited JSON, which JSONDecoder reads line by line.
        EdgeCase(
            name: "lines ending in CRLF, with blank lines",
            payload: "\r\n" + #"{"userId": 1, "id": 7, "title": "t", "body": "b"}"# + "\r\n \t\r\n\n"
                + #"{"userId": 1, "id": 8, "title": "t", "body": "b"}"# + "\r\n",
            ours: .reads([seven, post(id: 8)]),
            jsonDecoder: .reads([seven, post(id: 8)])
        ),
        EdgeCase(
            name: "two posts on one line",
            payload:
                #"{"userId": 1, "id": 7, "title": "t", "body": "b"} {"userId": 1, "id": 8, "title": "t", "body": "b"}"#,
            ours: .refuses("Line 1 is not valid JSON: expected the end of the line after the post"),
            jsonDecoder: .refuses("")
        ),
        EdgeCase(
            name: "a post over two lines, after a post",
            payload: #"{"userId": 1, "id": 7, "title": "t", "body": "b"}"# + "\n"
                + #"{"userId": 1, "id": 8,"# + "\n" + #""title": "t", "body": "b"}"#,
            ours: .refuses("Line 2 is not valid JSON"),
            jsonDecoder: .refuses("")
        ),
    ]

    @Test("documented edge cases: each decoder's answer", arguments: edgeCases)
    func edgeCase(_ edge: EdgeCase) {
        let payload = Array(edge.payload.utf8)
        switch (edge.ours, Self.decode(payload)) {
        case (.reads(let expected), .success(let posts)):
            #expect(posts == expected)
        case (.refuses(let fragment), .failure(let error)):
            #expect(error.code == .invalidData)
            #expect(error.message.contains(fragment), "\(error.message)")
        case (let expected, let actual):
            Issue.record("ours: expected \(expected), got \(actual)")
        }
        switch (edge.jsonDecoder, Self.reference(payload)) {
        case (.reads(let expected), .success(let posts)):
            #expect(posts == expected)
        case (.refuses, .failure):
            break
        case (let expected, let actual):
            Issue.record("JSONDecoder: expected \(expected), got \(actual)")
        }
    }

    /// Values of an unknown key that `JSONDecoder` skips without checking them all: each must be read alike, or
    /// refused by ours for a documented reason (what `corruptedPayloadsAgree` demands of every mutant).
    struct IgnoredValue: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]

        init(_ name: String, _ bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }

        var testDescription: String { name }
    }

    static let ignoredValues: [IgnoredValue] = [
        IgnoredValue("a NUL in a string", Array("\"a".utf8) + [0x00] + Array("b\"".utf8)),
        IgnoredValue("a control character in a string", Array("\"a".utf8) + [0x1F] + Array("\"".utf8)),
        IgnoredValue("a tab in a string", Array("\"a\tb\"".utf8)),
        IgnoredValue("a line feed in a string", Array("\"a\nb\"".utf8)),
        IgnoredValue("a byte that is never UTF-8 in a string", Array("\"a".utf8) + [0xFF] + Array("\"".utf8)),
        IgnoredValue("a cut UTF-8 sequence in a string", Array("\"a".utf8) + [0xC3] + Array("\"".utf8)),
        IgnoredValue("an encoded surrogate in a string", Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8)),
        IgnoredValue("invalid UTF-8 in a key of an object", Array("{\"".utf8) + [0x80] + Array("\": 1}".utf8)),
        IgnoredValue("a number ending in a point", Array("1.".utf8)),
        IgnoredValue("a number ending in an exponent mark", Array("1e".utf8)),
        IgnoredValue("a number ending in an exponent sign", Array("1E+".utf8)),
        IgnoredValue("a minus sign alone", Array("[-]".utf8)),
        IgnoredValue("two minus signs", Array("--1".utf8)),
        IgnoredValue("a minus sign inside a number", Array("1-2".utf8)),
        IgnoredValue("a fraction without integer digits after a minus", Array("-.5".utf8)),
        IgnoredValue("two fractions", Array("1.5.5".utf8)),
        IgnoredValue("two exponents", Array("1e5e5".utf8)),
    ]

    @Test("corrupt values of an unknown key: ours refuses only as documented", arguments: ignoredValues)
    func ignoredValue(_ value: IgnoredValue) {
        let payload =
            Array(#"[{"userId": 1, "id": 7, "title": "t", "body": "b", "extra": "#.utf8) + value.bytes
            + Array("}]".utf8)
        if case .disagreement(let kind, let detail) = Self.verdict(on: payload) {
            Issue.record("\(Self.render(payload)): \(kind). \(detail)")
        }
    }

    /// Whole numbers near 2^53 and the ends of Int64, in every spelling, and numbers that are almost whole.
    @Test("integer fields: ours reads exactly the spellings JSONDecoder reads, as the same number")
    func integerSpellingsAgree() {
        let values: [Int] = [
            0, 1, -1, 7, 100, (1 << 53) - 1, 1 << 53, (1 << 53) + 1, 12_345_678_901_234_567,
            1_000_000_000_000_000_000, 1 << 62, 9_223_372_036_854_775_295, 9_223_372_036_854_775_296, .max, .min,
            .min + 1,
        ]
        var spellings: [String] = [
            "1.0000000000000001", "0.99999999999999999", "1e-400", "-1e-400", "9007199254740993.5",
            "12345678901234567.9",
            "9.223372036854775807E18", "922337203685477580.7e1", "4611686018427387904.5", "-0.0", "0.0e-999", "1e19",
        ]
        for value in values {
            let plain = String(value)
            spellings += [
                plain, "\(plain).0", "\(plain).000", "\(plain)e0", "\(plain)E+0", "\(plain)0e-1", "\(plain).5",
            ]
        }
        var disagreements: [String] = []
        for spelling in spellings {
            let payload = Array(Self.one(id: spelling).utf8)
            let ours = (try? Self.decode(payload).get())?.first?.id
            let theirs = (try? Self.reference(payload).get())?.first?.id
            // Documented: ours refuses a non-zero fraction that JSONDecoder rounds away.
            let isWhole = spelling.utf8.withContiguousStorageIfAvailable {
                PostJSONScanner.integerValue(of: $0) != nil
            }
            if ours == nil, theirs != nil, isWhole == false { continue }
            if ours != theirs {
                disagreements.append(
                    "\(spelling): ours \(ours.map { String($0) } ?? "refuses"), JSONDecoder \(theirs.map { String($0) } ?? "refuses")"
                )
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) spellings read differently:\n\(disagreements.joined(separator: "\n"))"
        )
    }

    // MARK: Helpers

    /// Ours, on a whole payload.
    static func decode(_ payload: [UInt8]) -> Result<[Post], PostStoreError> {
        do {
            return .success(try PostJSON.decode(Data(payload)))
        } catch {
            return .failure(error)
        }
    }

    /// What `JSONDecoder` makes of a payload read the way ``PostJSON`` reads it: a JSON array of posts or, when
    /// the first character is `{`, one post per non-blank line.
    static func reference(_ payload: [UInt8]) -> Result<[Post], any Error> {
        do {
            guard payload.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{") else {
                return .success(try JSONDecoder().decode([Post].self, from: Data(payload)))
            }
            var posts: [Post] = []
            for line in payload.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            where line.contains(where: { !isWhitespace($0) }) {
                posts.append(try JSONDecoder().decode(Post.self, from: Data(line)))
            }
            return .success(posts)
        } catch {
            return .failure(error)
        }
    }

    /// Whether Foundation's `JSONSerialization`, which checks every value, reads the payload (each non-blank line
    /// of newline-delimited JSON).
    static func isJSONForJSONSerialization(_ payload: [UInt8]) -> Bool {
        let body = payload.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(payload.dropFirst(3)) : payload
        guard body.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{") else {
            return (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil
        }
        return body.split(separator: UInt8(ascii: "\n")).filter { $0.contains(where: { !isWhitespace($0) }) }.allSatisfy
        {
            (try? JSONSerialization.jsonObject(with: Data($0))) != nil
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// The "byte offset N" a syntax error names.
    static func byteOffset(in message: String) -> Int? {
        guard let match = message.firstMatch(of: /byte offset ([0-9]+)/) else { return nil }
        return Int(match.1)
    }

    /// A message with its numbers, bytes, characters and keys blanked out, to group findings by kind.
    static func shape(of message: String) -> String {
        let blanks: [(Regex<Substring>, String)] = [
            (/UTF-8/, "UTF-eight"), (/0x[0-9A-F]+/, "0x…"), (/U\+[0-9A-F]{4}/, "U+…"), (/'.'/, "'…'"),
            (/\(with keys .*\)/, "(with keys …)"), (/found -?[0-9][0-9.eE+-]*/, "found a number"),
            (/Line [0-9]+ is/, "The data is"), (/on line [0-9]+/, "at index N"), (/, in the post at index [0-9]+/, ""),
            (/-?[0-9]+/, "N"), (/UTF-eight/, "UTF-8"),
        ]
        return blanks.reduce(message) { shaped, blank in shaped.replacing(blank.0, with: blank.1) }
    }

    /// Bytes as text: printable ASCII as is, a backslash doubled, anything else as `\xHH`.
    static func render(_ bytes: [UInt8]) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20..<0x7F: text.append(Character(Unicode.Scalar(byte)))
            default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text + "\""
    }

    // MARK: Mutants

    /// Bytes a mutation inserts: JSON's punctuation, digits and number characters, a letter, NUL, and any byte that
    /// is not ASCII (half the time).
    static let insertedASCII = Array(#""{}[],:\ 0a-.eE"#.utf8) + [0]

    /// `count` corrupted payloads, the same ones for the same seed: small arrays (written by hand and by
    /// `JSONEncoder`) and newline-delimited posts, each changed in one or two places.
    static func mutants(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB))
        var mutants: [[UInt8]] = []
        while mutants.count < count {
            let posts = smallPosts.run(using: &random)
            var writer = VariedJSONWriter(seed: random.next())
            let payload =
                switch Int.random(in: 0..<10, using: &random) {
                case 0...4: writer.array(posts)
                case 5, 6: writer.encoded(posts)
                default: writer.lines(posts)
                }
            for _ in 0..<10 {
                var mutant = payload
                for _ in 0..<(Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1) {
                    mutate(&mutant, &random)
                }
                mutants.append(mutant)
            }
        }
        return mutants
    }

    /// Deletes, inserts, replaces or swaps bytes, truncates, or duplicates a run of bytes (half the time a whole
    /// object, so that posts and keys repeat). Half the insertions go next to punctuation, where a stray byte is most
    /// telling.
    static func mutate(_ bytes: inout [UInt8], _ random: inout Xoshiro) {
        func someByte() -> UInt8 {
            Bool.random(using: &random)
                ? insertedASCII.randomElement(using: &random)! : UInt8.random(in: 0x80...0xFF, using: &random)
        }
        guard !bytes.isEmpty else {
            bytes.append(someByte())
            return
        }
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<4:
            bytes.remove(at: index)
        case 4..<9:
            let punctuation = bytes.indices.filter { Self.isPunctuation(bytes[$0]) }
            let at =
                Bool.random(using: &random) && !punctuation.isEmpty
                ? punctuation.randomElement(using: &random)! + Int.random(in: 0...1, using: &random)
                : Int.random(in: 0...bytes.count, using: &random)
            bytes.insert(someByte(), at: at)
        case 9..<13:
            bytes[index] = someByte()
        case 13:
            bytes.removeSubrange(index...)
        case 14..<17:
            // Now and then the chunk is a whole object, copied right after itself: a repeated post, or key.
            let objects = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") }
            if Bool.random(using: &random), let start = objects.randomElement(using: &random),
                let object = objectRange(in: bytes, from: start)
            {
                let isArray = bytes.first(where: { !isWhitespace($0) }) == UInt8(ascii: "[")
                bytes.insert(contentsOf: Array((isArray ? "," : "\n").utf8) + bytes[object], at: object.upperBound)
            } else {
                let end = min(bytes.count, index + Int.random(in: 1...64, using: &random))
                let chunk = bytes[index..<end]
                let at = Bool.random(using: &random) ? end : Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: chunk, at: at)
            }
        default:
            bytes.swapAt(index, Int.random(in: 0..<bytes.count, using: &random))
        }
    }

    /// The object that starts with the `{` at `start`, through its closing `}`, if it closes.
    static func objectRange(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return start..<(index + 1) }
            default: break
            }
        }
        return nil
    }

    static func isPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","),
            UInt8(ascii: ":"), UInt8(ascii: "\""):
            true
        default: false
        }
    }

    /// The payload with as many bytes removed as keep `holds` true, for readable reports: halves, quarters and so
    /// on first, then short runs anywhere (a UTF-8 sequence, an escape), until nothing more can go (or 2,000 tries
    /// have been made).
    static func minimize(_ payload: [UInt8], while holds: ([UInt8]) -> Bool) -> [UInt8] {
        var current = payload
        var attempts = 2000  // A bound on the time a failing run spends here.
        func sweep(removing length: Int, step: Int) -> Bool {
            var removedAny = false
            var start = 0
            while start < current.count, attempts > 0 {
                attempts -= 1
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + length))
                if holds(candidate) {
                    current = candidate
                    removedAny = true
                } else {
                    start += step
                }
            }
            return removedAny
        }
        var chunk = current.count / 2
        while chunk > 6 {
            _ = sweep(removing: chunk, step: chunk)
            chunk /= 2
        }
        for _ in 0..<4 {
            var removedAny = false
            for length in [6, 4, 3, 2, 1] where sweep(removing: length, step: 1) { removedAny = true }
            if !removedAny { break }
        }
        return current
    }
}

/// Disagreements grouped by kind, recorded as one issue per kind that shows its shortest payload cut down to the
/// bytes the disagreement needs. `Context` is what reproduces a payload's disagreement besides its bytes.
private struct Findings<Context> {
    private var kinds: [String: (count: Int, payload: [UInt8], context: Context)] = [:]

    mutating func add(_ kind: String, _ payload: [UInt8], _ context: Context) {
        let known = kinds[kind]
        if let known, known.payload.count <= payload.count {
            kinds[kind]!.count += 1
        } else {
            kinds[kind] = ((known?.count ?? 0) + 1, payload, context)
        }
    }

    /// - Parameter reproduce: The kind and details of a payload's disagreement, or `nil` when there is none.
    func report(
        _ reproduce: ([UInt8], Context) -> (kind: String, detail: String)?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (kind, finding) in kinds.sorted(by: { $0.key < $1.key }) {
            let minimal = PostDecoderDifferentialTests.minimize(finding.payload) {
                reproduce($0, finding.context)?.kind == kind
            }
            let detail = reproduce(minimal, finding.context)?.detail ?? ""
            Issue.record(
                "\(kind) (\(finding.count) payloads), for example \(PostDecoderDifferentialTests.render(minimal)): \(detail)",
                sourceLocation: sourceLocation
            )
        }
    }
}

/// A file that hands out at most a few bytes per read, cycling through `readSizes`, so that the reader's windows
/// end everywhere: inside strings, escapes, numbers, UTF-8 sequences and the byte-order mark.
private final class TricklingReadableFile: ReadableFile {
    private let bytes: [UInt8]
    private let readSizes: [Int]
    private var offset = 0
    private var reads = 0

    init(_ bytes: [UInt8], readSizes: [Int]) {
        self.bytes = bytes
        self.readSizes = readSizes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(readSizes[reads % readSizes.count], buffer.count, bytes.count - offset)
        reads += 1
        buffer.copyBytes(from: bytes[offset..<(offset + count)])
        offset += count
        return count
    }
}
