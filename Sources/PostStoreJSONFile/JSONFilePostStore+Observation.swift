@_spi(FileSystem) package import PostStore
import PostStoreEngines

/// Observation of a JSON store: a write by any process replaces the file (a rename onto it), which inotify reports
/// and which gives the file a new identity (inode, size, modification time).
extension JSONFilePostStore: ObservedStore {
    package nonisolated func makeCommitProbe() -> any CommitProbe {
        FileCommitProbe(files: [file]) { [file, fileSystem] in
            // A file gone reads as a moved mark: the store's own read then says what happened.
            (try? fileSystem.identityOfFile(atPath: file)).map { $0.hashValue } ?? 0
        }
    }
}
