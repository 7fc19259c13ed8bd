import Foundation
import FuzzSupport
import PostStore

/// libFuzzer's entry point for `PostJSON.decode`.
///
/// Checks, on every input: the decoder returns posts with unique ids or throws `invalidData` with a non-empty,
/// one-line message (``PayloadChecks``); posts it returns decode again, the same, from what `PostJSON`
/// writes for them (a JSON array, and one object per line); a UTF-8 byte-order mark in front changes nothing but
/// error messages' offsets (posts, or an error, either way); and a small `maximumPostBytes` (picked from the input)
/// never accepts what the default limit refuses, nor reads other posts. Any broken check traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = start.map { Data(bytes: $0, count: count) } ?? Data()
    let result = PayloadChecks.decode(input)

    let byteOrderMark = Data([0xEF, 0xBB, 0xBF])
    if !input.starts(with: byteOrderMark) {
        let marked = PayloadChecks.decode(byteOrderMark + input)
        switch (result, marked) {
        case (.success(let posts), .success(let markedPosts)) where posts == markedPosts: break
        case (.failure, .failure): break
        default:
            fuzzFailure("a byte-order mark in front changed the result: \(result) vs \(marked)", input: input)
        }
    }

    // A tighter limit may only refuse more.
    let limit = 1 + Int(input.reduce(0) { ($0 &* 31) &+ Int($1) }.magnitude % UInt(input.count + 64))
    if case .success(let limited) = PayloadChecks.decode(input, maximumPostBytes: limit) {
        guard case .success(let posts) = result, posts == limited else {
            fuzzFailure("maximumPostBytes \(limit) accepted posts the default limit does not: \(result)", input: input)
        }
    }

    guard case .success(let posts) = result else { return 0 }
    let array = PostJSON.encode(posts)
    guard case .success(let again) = PayloadChecks.decode(array), again == posts else {
        fuzzFailure("the posts, written by PostJSON.encode, decode differently", input: input)
    }
    if !posts.isEmpty {
        var lines = Data()
        for post in posts {
            lines += PostJSON.encode(post)
            lines.append(0x0A)
        }
        guard case .success(let again) = PayloadChecks.decode(lines), again == posts else {
            fuzzFailure("the posts, written one per line by PostJSON.encode, decode differently", input: input)
        }
    }
    return 0
}
