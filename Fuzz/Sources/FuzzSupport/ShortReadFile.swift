package import Foundation
@_spi(FileSystem) import PostStore

/// Bytes in memory read like a file, each read returning fewer bytes than asked as its ``ReadSchedule`` says.
package final class ShortReadFile: ReadableFile {
    private let contents: Data
    private let schedule: ReadSchedule
    private var offset = 0
    private var state: UInt64

    /// Creates a file.
    ///
    /// - Parameters:
    ///   - contents: The file's bytes.
    ///   - schedule: How many bytes each read returns.
    package init(_ contents: Data, schedule: ReadSchedule) {
        self.contents = contents
        self.schedule = schedule
        if case .random(let seed, _) = schedule {
            state = seed | 1
        } else {
            state = 1
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        // 0 means the end of the file, so a reader that asks for nothing would take a short file for a whole one.
        guard !buffer.isEmpty else { fatalError("The stream reader asked to read into an empty buffer.") }
        let remaining = contents.count - offset
        guard remaining > 0 else { return 0 }
        let count = min(nextSize(limit: buffer.count), buffer.count, remaining)
        let start = contents.startIndex + offset
        contents.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        offset += count
        return count
    }

    private func nextSize(limit: Int) -> Int {
        switch schedule {
        case .bytewise:
            return 1
        case .whole:
            return limit
        case .random(_, let maximum):
            // xorshift64*: cheap, and the same seed gives the same sizes.
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let value = state &* 0x2545_F491_4F6C_DD1D
            let bound =
                switch value % 10 {
                case 0..<5: 8
                case 5..<8: 64
                default: max(1, maximum)
                }
            return 1 + Int((value >> 8) % UInt64(bound))
        }
    }
}
