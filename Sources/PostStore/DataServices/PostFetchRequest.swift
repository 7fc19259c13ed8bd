/// What a ``SyncService`` asks of a ``PostDataService``.
public struct PostFetchRequest: Sendable {
    /// The `ETag` the source sent for the posts last synced: a source that supports conditional requests answers
    /// ``PostStreamResult/notModified`` when its posts are still the same. `nil` fetches unconditionally.
    public var etag: String?

    /// Called for each page fetched and each retry, for a progress display.
    public var progress: @Sendable (SyncProgress) -> Void

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - etag: The `ETag` of the last sync, or `nil`.
    ///   - progress: Called for each page fetched and each retry.
    public init(etag: String? = nil, progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }) {
        self.etag = etag
        self.progress = progress
    }
}
