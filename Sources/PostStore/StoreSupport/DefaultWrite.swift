/// What `PostStoreProtocol`'s default write implementations tell each other, so that an engine implementing neither
/// `apply(_:)` nor `apply(_:streaming:progress:)` is named at its first write instead of sending the two defaults
/// round each other for ever.
enum DefaultWrite {
    /// The store type whose default `apply(_:)` the current task is inside, if any.
    @TaskLocal static var applyingWithoutStream: ObjectIdentifier?
}
