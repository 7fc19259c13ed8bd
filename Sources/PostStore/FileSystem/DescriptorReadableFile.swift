#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor read with `read(2)`; closed when released.
final class DescriptorReadableFile: ReadableFile {
    private let descriptor: Int32
    private let name: String

    /// - Parameters:
    ///   - descriptor: The open descriptor; this object owns it.
    ///   - name: The file's path, for errors.
    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit {
        close(descriptor)
    }

    /// The size of a regular file, from `fstat`; `nil` for anything else (a pipe, a device).
    var size: Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = readDescriptor(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            let error = SystemError(code: errno)
            throw PostStoreError(.ioFailure, "Cannot read \(name): \(error).", path: name, cause: error)
        }
    }
}

/// `read(2)`, under a name the method above does not shadow.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
