/// Whether opening a file-backed store may create it.
public enum StoreOpenMode: Sendable, Hashable {
    /// Open the store, creating an empty one when the file does not exist. What a sync wants.
    case createIfMissing
    /// Open an existing store; a missing file is ``PostStoreError/Code/storeNotFound``. What a query wants.
    case openExisting
}
