import Synchronization

/// A file opened ahead of its first reader, handed over once.
///
/// `@unchecked Sendable`: the one mutable property, `file`, is read and cleared only inside `lock`, so exactly
/// one caller of `take()` receives the file and nothing else ever touches it.
final class OpenedFile: @unchecked Sendable {
    private let lock = Mutex(())
    private var file: (any ReadableFile)?

    init(_ file: any ReadableFile) {
        self.file = file
    }

    /// The file, the first time; `nil` afterwards.
    func take() -> (any ReadableFile)? {
        lock.withLock { _ in
            defer { file = nil }
            return file
        }
    }
}
