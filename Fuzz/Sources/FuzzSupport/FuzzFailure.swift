public import Foundation

/// Stops the fuzzer on a broken check: prints what failed and the input (as hex and as escaped text), then traps so
/// libFuzzer records the input as a crash.
///
/// - Parameters:
///   - check: What failed, one line.
///   - input: The input that made it fail.
public func fuzzFailure(_ check: String, input: Data) -> Never {
    var report = "\nFUZZ CHECK FAILED: \(check)\n"
    report += "input (\(input.count) bytes), hex: \(hexDump(input.prefix(4096)))\(input.count > 4096 ? " …" : "")\n"
    report += "input as text: \(String(decoding: input.prefix(4096), as: UTF8.self).debugDescription)\n"
    FileHandle.standardError.write(Data(report.utf8))
    fatalError(check)
}

/// The bytes as two hexadecimal digits each, without separators.
///
/// - Parameter bytes: The bytes.
/// - Returns: For example `5b5d` for `[]`.
public func hexDump(_ bytes: some Collection<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
