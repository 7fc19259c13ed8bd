/// A store kept in files of the local file system, which any process may write: what a ``ChangeWatcher`` watches to
/// learn of another process's write without reading the store over and over.
///
/// SQLite and JSON-file stores conform.
package protocol FileBackedStore: PostStoreProtocol {
    /// The files that a write by any process creates, writes or replaces (a SQLite store's file, its `-wal` and
    /// `-journal`; a JSON store's file).
    nonisolated var filesWrittenByWrites: [String] { get }
}
