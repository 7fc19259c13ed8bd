import Foundation
import FuzzSupport
@_spi(FileSystem) import PostStore
import Synchronization

/// libFuzzer's start-up hook: builds the generated posts before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeReaderFuzzer(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    _ = generatedPosts.arrayPrefix(1)
    return 0
}

/// libFuzzer's entry point for `FilePostDataService`: the input is the file, read in short pieces.
///
/// Every way the service reads must agree with `PostJSON.decode` of the whole input (``PayloadChecks``): the
/// same posts, or an `invalidData` error whose message is the decoder's, prefixed with the source
/// (`Cannot use the posts in input.json: …`), whose path is the file's and whose cause is the decoder's error; a
/// finished read reports its count once as progress, a failed one nothing.
///
/// The ways, chosen by a hash of the input: always `streamPosts` read batch by batch with pseudo-random short
/// reads, then a second reader of the same stream (the file opened again) a byte at a time (inputs up to 1 KiB;
/// longer ones in pieces of up to 16 bytes); for one input in 8 also `fetchAllPosts` and standard input (`-`); for
/// one in 256 the input behind some 4,096 generated posts, so the reader's batch boundary (4,096 posts) falls in
/// or near it.
///
/// For one input in 4 the per-post limit (`PayloadLimits.maximumPostBytes`) is small, 1 to 600 bytes, for the
/// service and the decoder alike. One difference is allowed there: the reader may refuse a record that runs past
/// the limit (by more than its 4 KiB of slack) before reading it whole ("… is larger than the limit of … per
/// post."), where the decoder names another problem further on; both must still fail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = start.map { Data(bytes: $0, count: count) } ?? Data()
    let seed = inputHash(input)
    let limits =
        seed % 4 == 1 ? PayloadLimits(maximumPostBytes: 1 + Int((seed >> 8) % 600)) : PayloadLimits()
    let expected = PayloadChecks.decode(input, maximumPostBytes: limits.maximumPostBytes)

    // A byte at a time re-reads a value once per byte: quadratic, so only for inputs up to 1 KiB.
    let second: ReadSchedule = input.count <= 1024 ? .bytewise : .random(seed: seed ^ 0x5555, maximum: 16)
    let fileSystem = ShortReadFileSystem(
        path: "input.json",
        contents: input,
        schedules: [.random(seed: seed, maximum: 64), second]
    )
    runBlocking {
        let service = FilePostDataService(path: fileSystem.path, limits: limits, fileSystem: fileSystem)
        let progress = ProgressLog()
        let stream = await streamPosts(service, progress: progress, input: input)
        readAll(stream, progress: progress, expecting: expected, from: "input.json", input: input, pass: "streamPosts")
        readAll(
            stream,
            progress: progress,
            expecting: expected,
            from: "input.json",
            input: input,
            pass: "second reader"
        )
        if fileSystem.openCount != 2 {
            fuzzFailure("two readers opened the file \(fileSystem.openCount) times, not twice", input: input)
        }

        if (seed >> 16) % 8 == 0 {
            let fetching = ShortReadFileSystem(
                path: "input.json",
                contents: input,
                schedules: [.random(seed: seed ^ 0xAAAA, maximum: 4096)]
            )
            let fetchService = FilePostDataService(path: fetching.path, limits: limits, fileSystem: fetching)
            await fetch(fetchService, expecting: expected, input: input)

            let standardInput = FilePostDataService(
                path: FilePostDataService.standardInputPath,
                limits: limits,
                fileSystem: fileSystem
            )
            let stream = await streamPosts(standardInput, progress: progress, input: input)
            readAll(stream, progress: progress, expecting: expected, from: nil, input: input, pass: "standard input")
        }

        if (seed >> 24) % 256 == 0, let padded = paddedToBatchBoundary(input, seed: seed) {
            let expected = PayloadChecks.decode(padded, maximumPostBytes: limits.maximumPostBytes)
            let large = ShortReadFileSystem(
                path: "input.json",
                contents: padded,
                schedules: [.random(seed: seed, maximum: 8192)]
            )
            let stream = await streamPosts(
                FilePostDataService(path: large.path, limits: limits, fileSystem: large),
                progress: progress,
                input: padded
            )
            readAll(stream, progress: progress, expecting: expected, from: "input.json", input: padded, pass: "padded")
        }
    }
    return 0
}

/// The progress a reader reported.
private final class ProgressLog: Sendable {
    let steps = Mutex<[SyncProgress]>([])

    /// Returns the steps reported so far and forgets them.
    func take() -> [SyncProgress] {
        steps.withLock { steps in
            defer { steps = [] }
            return steps
        }
    }
}

private func streamPosts(_ service: FilePostDataService, progress: ProgressLog, input: Data) async -> PostStream {
    let request = PostFetchRequest { step in progress.steps.withLock { $0.append(step) } }
    do {
        guard case .posts(let stream, let etag, let pages) = try await service.streamPosts(request) else {
            fuzzFailure("streamPosts of a file said 'not modified'", input: input)
        }
        guard etag == nil, pages == 1 else {
            fuzzFailure("streamPosts of a file gave etag \(etag ?? "nil") and \(pages) pages", input: input)
        }
        return stream
    } catch {
        fuzzFailure("streamPosts threw before reading: \(error)", input: input)
    }
}

/// Reads a stream to its end, batch by batch, and checks it against the decoder's result.
///
/// - Parameter source: The file's path, or `nil` for standard input.
private func readAll(
    _ stream: PostStream,
    progress: ProgressLog,
    expecting expected: Result<[Post], PostStoreError>,
    from source: String?,
    input: Data,
    pass: String
) {
    var posts: [Post] = []
    let outcome: Result<[Post], any Error> = Result {
        var reader = try stream.makeReader()
        while let batch = try reader.nextBatch() {
            posts += batch
        }
        if let extra = try reader.nextBatch() {
            fuzzFailure("\(pass): a finished reader gave another batch of \(extra.count) posts", input: input)
        }
        return posts
    }
    let steps = progress.take()
    compare(outcome, with: expected, from: source, input: input, pass: pass)
    // A reading phase: its start, counts that only grow, and one finished update at the end of a whole read only.
    let updates = steps.compactMap { step -> WorkProgress? in
        if case .working(let update) = step, update.phase == .reading { update } else { nil }
    }
    let counts = updates.map(\.completed)
    guard updates.count == steps.count, updates.first?.completed ?? 0 == 0,
        zip(counts, counts.dropFirst()).allSatisfy({ $0 <= $1 }), updates.dropLast().allSatisfy({ !$0.isFinished })
    else {
        fuzzFailure("\(pass): the reading phase's updates are out of order: \(steps)", input: input)
    }
    if case .success(let posts) = outcome {
        guard let end = updates.last, end.isFinished, end.completed == posts.count else {
            fuzzFailure("\(pass): \(posts.count) posts read, but progress reported \(steps)", input: input)
        }
    } else if updates.last?.isFinished == true {
        fuzzFailure("\(pass): a failed read reported its end: \(steps)", input: input)
    }
}

private func fetch(
    _ service: FilePostDataService,
    expecting expected: Result<[Post], PostStoreError>,
    input: Data
) async {
    let outcome: Result<[Post], any Error>
    do {
        outcome = .success(try await service.fetchAllPosts())
    } catch {
        outcome = .failure(error)
    }
    compare(outcome, with: expected, from: service.path, input: input, pass: "fetchAllPosts")
}

/// Checks a read's outcome against the decoder's: the same posts, or the decoder's error naming the source.
private func compare(
    _ outcome: Result<[Post], any Error>,
    with expected: Result<[Post], PostStoreError>,
    from path: String?,
    input: Data,
    pass: String
) {
    switch (outcome, expected) {
    case (.success(let posts), .success(let expectedPosts)):
        guard posts == expectedPosts else {
            fuzzFailure(
                "\(pass) read \(posts.count) posts, decode \(expectedPosts.count): they differ"
                    + (posts.count == expectedPosts.count ? " in content" : ""),
                input: input
            )
        }
    case (.success(let posts), .failure(let error)):
        fuzzFailure("\(pass) read \(posts.count) posts, but decode threw: \(error.message)", input: input)
    case (.failure(let error), .success(let expectedPosts)):
        fuzzFailure("\(pass) threw \(error), but decode read \(expectedPosts.count) posts", input: input)
    case (.failure(let error), .failure(let expectedError)):
        guard let error = error as? PostStoreError else {
            fuzzFailure("\(pass) threw \(type(of: error)), not PostStoreError: \(error)", input: input)
        }
        PayloadChecks.checkDecodeError(error, input: input, context: pass)
        let prefix = "Cannot use the posts in \(path ?? "standard input"): "
        let message = prefix + expectedError.message
        // The reader's early refusal of a record that runs far past the per-post limit, named without its id.
        let isEarlyRefusal =
            error.message.hasPrefix(prefix) && error.message.hasSuffix(" per post.")
            && error.message.contains(" is larger than the limit of ") && !error.message.contains(" (id ")
        guard error.message == message || isEarlyRefusal else {
            fuzzFailure(
                "\(pass) and decode disagree on the message:\n  \(pass): \(error.message)\n  decode: \(message)",
                input: input
            )
        }
        guard error.path == path else {
            fuzzFailure("\(pass) threw with path \(error.path ?? "nil"), not \(path ?? "nil")", input: input)
        }
        guard let cause = error.cause as? PostStoreError, prefix + cause.message == error.message else {
            fuzzFailure("\(pass) threw with cause \(String(describing: error.cause)), not decode's error", input: input)
        }
    }
}

/// Puts 4,094 to 4,098 generated posts (negative ids, in the input's own format) in front of an input that starts
/// an array or a line of JSON, so the reader's batch boundary of 4,096 posts falls near the input's first posts.
///
/// - Returns: The longer payload, or `nil` when the input starts with neither `[` nor `{`.
private func paddedToBatchBoundary(_ input: Data, seed: UInt64) -> Data? {
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    guard let first = input.firstIndex(where: { !isBlank($0) }) else { return nil }
    let count = 4094 + Int((seed >> 32) % 5)
    switch input[first] {
    case UInt8(ascii: "["):
        var padded = Data("[".utf8)
        padded += generatedPosts.arrayPrefix(count)
        let rest = input[(first + 1)...]
        if rest.first(where: { !isBlank($0) }) != UInt8(ascii: "]") { padded += Data(",".utf8) }
        return padded + rest
    case UInt8(ascii: "{"):
        return generatedPosts.linesPrefix(count) + input
    default:
        return nil
    }
}

/// The generated posts of ``paddedToBatchBoundary(_:seed:)``, written once (at start-up, in
/// `LLVMFuzzerInitialize`, so no input is blamed for the allocation).
private let generatedPosts = GeneratedPosts(count: 4098)

/// Posts in both formats, as bytes: arrays, not `Data`, whose storage reference LeakSanitizer cannot always see
/// in a global and reports as a leak.
private struct GeneratedPosts: Sendable {
    /// The posts' JSON, each followed by one separator byte (a comma for arrays, a line feed for lines).
    private let arrayText: [UInt8]
    private let linesText: [UInt8]
    /// Where each post's text ends (before its separator).
    private let ends: [Int]

    init(count: Int) {
        var arrayText: [UInt8] = []
        var linesText: [UInt8] = []
        var ends: [Int] = []
        for number in 1...count {
            let post = PostJSON.encode(Post(userId: number % 10, id: -number, title: "t\(number)", body: "b"))
            arrayText += post
            linesText += post
            ends.append(arrayText.count)
            arrayText.append(UInt8(ascii: ","))
            linesText.append(0x0A)
        }
        self.arrayText = arrayText
        self.linesText = linesText
        self.ends = ends
    }

    /// The first `count` posts separated by commas, without a trailing comma.
    func arrayPrefix(_ count: Int) -> Data { Data(arrayText[..<ends[count - 1]]) }

    /// The first `count` posts, one per line, each line ended.
    func linesPrefix(_ count: Int) -> Data { Data(linesText[..<(ends[count - 1] + 1)]) }
}

/// A cheap, stable hash of the input, the seed of its read sizes and of the choices above: FNV-1a, then
/// SplitMix64's finalizer, since FNV-1a's low bits alone hardly vary (its lowest two follow the bytes' own).
private func inputHash(_ bytes: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
    hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
    return hash ^ (hash >> 31)
}
