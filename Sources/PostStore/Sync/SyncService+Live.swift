import Logging

extension SyncService {
    /// Creates a service that dates and times its syncs on the system clock and logs to a `Logger` labelled
    /// `PostStore.SyncService`.
    ///
    /// - Parameters:
    ///   - dataService: Where the posts come from.
    ///   - store: Where they go.
    public init(dataService: any PostDataService, store: any PostStoreProtocol) {
        self.init(
            dataService: dataService,
            store: store,
            clock: SystemClock(),
            logger: Logger(label: "PostStore.SyncService")
        )
    }
}
