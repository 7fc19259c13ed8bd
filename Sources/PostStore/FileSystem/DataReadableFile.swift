import Foundation

/// Bytes already in memory, read like a file: what file systems that only read whole files hand out.
final class DataReadableFile: ReadableFile {
    private let data: Data
    private var offset = 0

    init(_ data: Data) {
        self.data = data
    }

    var size: Int? { data.count }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, data.count - offset)
        let start = data.startIndex + offset
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        offset += count
        return count
    }
}
