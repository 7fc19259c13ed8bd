import Foundation

/// Writes JSONPlaceholder-layout post files for the benchmarks, deterministically (same arguments, same bytes).
///
/// The files look like JSONPlaceholder's own `/posts` answer: pretty-printed with a two-space indent, keys in the
/// order `userId`, `id`, `title`, `body`, user `(id - 1) / 10 + 1`, lowercase lorem-ipsum titles of 3 to 10 words and
/// bodies of 4 lines; about 350 bytes a post, so 1,000,000 posts make about 350 MB. About 1 post in 100 carries a
/// word that exercises a decoder: an escaped quote, backslash or slash, raw UTF-8 (`ümlaut`, an emoji), or `\u`
/// escapes including a surrogate pair. Everything stays lowercase, so SQLite's ASCII-only `lower()` and Swift's
/// `lowercased()` agree on it.
///
/// Each post is drawn from its own random stream, seeded by the generator's seed and the post's id, so a post's bytes
/// do not depend on its neighbours: the changed file shares every post it keeps untouched byte for byte with the
/// base file.
///
/// For example:
/// ```swift
/// let generator = PostFileGenerator()
/// try generator.writeFile(count: 1_000_000, to: "/tmp/posts.json")
/// let changes = try generator.writeChangedFile(count: 1_000_000, to: "/tmp/posts-changed.json")
/// ```
struct PostFileGenerator {
    /// A file that could not be written.
    struct WriteError: Error, CustomStringConvertible {
        /// The file.
        let path: String
        /// What failed, from the C library's `strerror`.
        let reason: String

        var description: String { "cannot write \(path): \(reason)" }
    }

    /// The seed every post's random stream derives from.
    let seed: UInt64

    /// Creates a generator whose files are a function of `seed`.
    ///
    /// - Parameter seed: Two generators with the same seed write the same bytes.
    init(seed: UInt64 = 1) {
        self.seed = seed
    }

    /// Writes `count` posts with ids 1...count as a JSON array to `path`, laid out like JSONPlaceholder's own
    /// /posts answer (pretty-printed with two-space indent, keys in the order userId, id, title, body).
    ///
    /// - Parameters:
    ///   - count: How many posts; 0 writes `[]`.
    ///   - path: The file, replaced if it exists.
    /// - Throws: ``WriteError`` when the file cannot be created or written.
    func writeFile(count: Int, to path: String) throws {
        precondition(count >= 0, "a file cannot hold \(count) posts")
        let file = try OutputFile(path: path)
        var scratch = PostScratch()
        for id in stride(from: 1, through: count, by: 1) {
            drawPost(id: id, into: &scratch)
            try file.writePost(id: id, scratch)
        }
        try file.close()
    }

    /// Writes the "changed" variant of the file `writeFile(count:)` makes: 5% of the posts removed, 10% edited
    /// (title or body changed), 5% new posts with ids above count; returns those counts.
    ///
    /// Which posts are removed or edited is drawn from the seed too, spread over the whole id range; every post that is
    /// neither keeps the exact bytes it has in the base file, and every edited post really differs from its original.
    ///
    /// - Parameters:
    ///   - count: The number of posts in the base file this file is a change of.
    ///   - path: The file, replaced if it exists.
    /// - Returns: How many posts were removed, edited and added (`count / 20`, `count / 10` and `count / 20`).
    /// - Throws: ``WriteError`` when the file cannot be created or written.
    func writeChangedFile(count: Int, to path: String) throws -> (removed: Int, edited: Int, added: Int) {
        precondition(count >= 0, "a file cannot hold \(count) posts")
        let removed = count / 20
        let edited = count / 10
        let added = count / 20
        let file = try OutputFile(path: path)
        var scratch = PostScratch()
        var original = PostScratch()
        // Sequential sampling (Knuth's algorithm S, for two kinds at once): each id is removed with probability
        // removals left / ids left, so exactly `removed` and `edited` ids are chosen, in one pass and no memory.
        var choices = SplitMix64(state: SplitMix64.mix(seed ^ 0x6368_616E_6765_7321))
        var removalsLeft = removed
        var editsLeft = edited
        for id in stride(from: 1, through: count, by: 1) {
            let draw = choices.next(below: count - id + 1)
            if draw < removalsLeft {
                removalsLeft -= 1
                continue
            }
            drawPost(id: id, into: &scratch)
            if draw < removalsLeft + editsLeft {
                editsLeft -= 1
                original = scratch
                drawEdit(id: id, of: original, into: &scratch)
            }
            try file.writePost(id: id, scratch)
        }
        for id in stride(from: count + 1, through: count + added, by: 1) {
            drawPost(id: id, into: &scratch)
            try file.writePost(id: id, scratch)
        }
        try file.close()
        return (removed, edited, added)
    }

    // MARK: - Drawing posts

    /// The random stream of one post: stream 0 draws the post itself, streams 1... its edits.
    private func stream(id: Int, _ number: UInt64) -> SplitMix64 {
        SplitMix64(state: SplitMix64.mix(seed &+ SplitMix64.mix(UInt64(id) &<< 16 | number)))
    }

    private func drawPost(id: Int, into post: inout PostScratch) {
        var random = stream(id: id, 0)
        post.title.removeAll(keepingCapacity: true)
        post.body.removeAll(keepingCapacity: true)
        Lorem.drawTitle(into: &post.title, &random)
        Lorem.drawBody(into: &post.body, &random)
        // One post in 10,000 names a zyzzyva (ids 50, 10050, …) and one a quokka (ids 150, 10150, …): the rare terms
        // the query benchmarks search for, one whose trigrams are rare too and one made of trigrams the lorem-ipsum
        // words share ("quo" of quo, quos, quod).
        if id % 10_000 == 50 { post.title.append(contentsOf: " zyzzyva".utf8) }
        if id % 10_000 == 150 { post.title.append(contentsOf: " quokka".utf8) }
        // About 1 post in 100 gets one word that a decoder must work at.
        if random.next(below: 100) == 0 {
            let special = Lorem.specialWords[random.next(below: Lorem.specialWords.count)]
            if random.next(below: 2) == 0 {
                post.title.append(0x20)
                post.title.append(contentsOf: special)
            } else {
                post.body.append(0x20)
                post.body.append(contentsOf: special)
            }
        }
    }

    /// Redraws the title or the body of `original` from the post's next stream until it differs from the original.
    private func drawEdit(id: Int, of original: PostScratch, into post: inout PostScratch) {
        var number: UInt64 = 1
        repeat {
            var random = stream(id: id, number)
            number += 1
            post = original
            if random.next(below: 2) == 0 {
                post.title.removeAll(keepingCapacity: true)
                Lorem.drawTitle(into: &post.title, &random)
            } else {
                post.body.removeAll(keepingCapacity: true)
                Lorem.drawBody(into: &post.body, &random)
            }
        } while post.title == original.title && post.body == original.body
    }
}

/// One post's title and body as JSON string contents (escapes written out), reused from post to post.
private struct PostScratch {
    var title: [UInt8] = []
    var body: [UInt8] = []
}

/// The words posts are made of.
private enum Lorem {
    /// The lorem-ipsum words of the Faker library JSONPlaceholder's data was made with, each once.
    static let words: [[UInt8]] = [
        "alias", "consequatur", "aut", "perferendis", "sit", "voluptatem", "accusantium", "doloremque", "aperiam",
        "eaque", "ipsa", "quae", "ab", "illo", "inventore", "veritatis", "et", "quasi", "architecto", "beatae", "vitae",
        "dicta", "sunt", "explicabo", "aspernatur", "odit", "fugit", "sed", "quia", "consequuntur", "magni", "dolores",
        "eos", "qui", "ratione", "sequi", "nesciunt", "neque", "dolorem", "ipsum", "dolor", "amet", "consectetur",
        "adipisci", "velit", "non", "numquam", "eius", "modi", "tempora", "incidunt", "ut", "labore", "dolore",
        "magnam", "aliquam", "quaerat", "enim", "ad", "minima", "veniam", "quis", "nostrum", "exercitationem", "ullam",
        "corporis", "nemo", "ipsam", "voluptas", "suscipit", "laboriosam", "nisi", "aliquid", "ex", "ea", "commodi",
        "autem", "vel", "eum", "iure", "reprehenderit", "in", "voluptate", "esse", "quam", "nihil", "molestiae",
        "iusto", "odio", "dignissimos", "ducimus", "blanditiis", "praesentium", "laudantium", "totam", "rem",
        "voluptatum", "deleniti", "atque", "corrupti", "quos", "quas", "molestias", "excepturi", "sint", "occaecati",
        "cupiditate", "provident", "perspiciatis", "unde", "omnis", "iste", "natus", "error", "similique", "culpa",
        "officia", "deserunt", "mollitia", "animi", "id", "est", "laborum", "dolorum", "fuga", "harum", "quidem",
        "rerum", "facilis", "expedita", "distinctio", "nam", "libero", "tempore", "cum", "soluta", "nobis", "eligendi",
        "optio", "cumque", "impedit", "quo", "porro", "quisquam", "minus", "quod", "maxime", "placeat", "facere",
        "possimus", "assumenda", "repellendus", "temporibus", "quibusdam", "illum", "fugiat", "nulla", "pariatur", "at",
        "vero", "accusamus", "officiis", "debitis", "necessitatibus", "saepe", "eveniet", "voluptates", "repudiandae",
        "recusandae", "itaque", "earum", "hic", "tenetur", "a", "sapiente", "delectus", "reiciendis", "voluptatibus",
        "maiores", "doloribus", "asperiores", "repellat",
    ].map { Array($0.utf8) }

    /// Words as JSON string contents that a decoder must work at: escapes, raw UTF-8, and `\u` escapes of the same.
    static let specialWords: [[UInt8]] = [
        #"\"dolor\""#,  // escaped quotes
        #"back\\slash"#,  // an escaped backslash
        #"and\/or"#,  // an escaped slash
        "ümlaut",  // raw two-byte UTF-8
        "smörgåsbord",
        "naïve café",
        "🙂",  // raw four-byte UTF-8
        #"caf\u00e9"#,  // a \u escape of two-byte UTF-8
        #"\u20ac"#,  // three-byte UTF-8 (the euro sign)
        #"\ud83d\ude00"#,  // a surrogate pair (grinning face)
        #"tab\there"#,  // an escaped tab
    ].map { Array($0.utf8) }

    /// 3 to 10 words, as JSONPlaceholder's titles.
    static func drawTitle(into text: inout [UInt8], _ random: inout SplitMix64) {
        drawWords(random.next(in: 3...10), into: &text, &random)
    }

    /// 4 lines of 4 to 11 words joined by an escaped newline: JSONPlaceholder's shape, a little longer, to make about
    /// 350 bytes a post.
    static func drawBody(into text: inout [UInt8], _ random: inout SplitMix64) {
        for line in 0..<4 {
            if line > 0 {
                text.append(0x5C)  // \n, escaped as JSON writes it
                text.append(0x6E)
            }
            drawWords(random.next(in: 4...11), into: &text, &random)
        }
    }

    private static func drawWords(_ count: Int, into text: inout [UInt8], _ random: inout SplitMix64) {
        for index in 0..<count {
            if index > 0 { text.append(0x20) }
            text.append(contentsOf: words[random.next(below: words.count)])
        }
    }
}

/// The file being written, through a 4 MB buffer so that no file is ever held whole in memory.
private final class OutputFile {
    private static let bufferSize = 4 << 20
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private var postsWritten = 0

    init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "wb") else {
            throw PostFileGenerator.WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        buffer.reserveCapacity(Self.bufferSize + 64 << 10)
        buffer.append(0x5B)  // [
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends one post in JSONPlaceholder's layout.
    func writePost(id: Int, _ post: PostScratch) throws {
        append(postsWritten == 0 ? "\n  {\n    \"userId\": " : ",\n  {\n    \"userId\": ")
        appendDecimal((id - 1) / 10 + 1)
        append(",\n    \"id\": ")
        appendDecimal(id)
        append(",\n    \"title\": \"")
        buffer.append(contentsOf: post.title)
        append("\",\n    \"body\": \"")
        buffer.append(contentsOf: post.body)
        append("\"\n  }")
        postsWritten += 1
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Ends the array, writes what is buffered and closes the file.
    func close() throws {
        append(postsWritten == 0 ? "]" : "\n]")
        try flush()
        let file = self.file
        self.file = nil
        if let file, fclose(file) != 0 {
            throw PostFileGenerator.WriteError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func flush() throws {
        guard let file else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count {
            throw PostFileGenerator.WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func append(_ literal: StaticString) {
        literal.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private func appendDecimal(_ value: Int) {
        precondition(value >= 0)
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let end = buffer.count + digits
        buffer.append(contentsOf: repeatElement(0x30, count: digits))
        var remaining = value
        for index in stride(from: end - 1, through: end - digits, by: -1) {
            buffer[index] = 0x30 + UInt8(remaining % 10)
            remaining /= 10
        }
    }
}
