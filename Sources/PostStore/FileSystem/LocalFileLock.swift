#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `flock` lock held through an open file descriptor; closing the descriptor releases it.
final class LocalFileLock: FileLock {
    private var descriptor: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func unlock() {
        guard let descriptor else { return }
        close(descriptor)
        self.descriptor = nil
    }

    deinit {
        unlock()
    }
}
