public import Logging

extension SyncService {
    /// Creates a service that dates and times its syncs on the system clock.
    ///
    /// - Parameters:
    ///   - dataService: Where the posts come from.
    ///   - store: Where they go.
    ///   - logger: Where each sync's outcome is logged; `nil` (the default) logs nothing.
    public init(dataService: any PostDataService, store: any PostStoreProtocol, logger: Logger? = nil) {
        self.init(dataService: dataService, store: store, clock: SystemClock(), logger: logger)
    }
}
