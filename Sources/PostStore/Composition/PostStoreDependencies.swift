public import Logging

/// The object graph of a PostStore program: the composition root.
///
/// `live(_:logger:)` turns a `PostStoreConfiguration` into the live graph; apps call it, and everything below
/// receives its collaborators through initializers. The wiring itself is written once, in
/// `DependencyStore/registerLive(_:logger:)`, which the `poststore` tool calls directly:
///
/// - the clock: ``SystemClock``, shared by everything below that uses one;
/// - the store: the engine of the configuration's `StoreSpec`, from the table `StoreEngine.all` —
///   ``InMemoryPostStore``, `JSONFilePostStore` (on `LocalFileSystem`, with the clock), `SQLitePostStore`
///   (libsqlite3 through its own connection helper, with the clock) or `PostgresPostStore` (a `PostgresClient` of
///   its own, with the logger);
/// - the data service: `HTTPPostDataService` (over `URLSession`, with the clock, `SystemRandomSource`, the
///   logger) or ``FilePostDataService`` (`LocalFileSystem`);
/// - the ``SyncService``: the data service, the store, the clock and the logger.
///
/// Tests build the same type from doubles with ``init(store:dataService:clock:logger:)``.
///
/// For example:
///
/// ```swift
/// let dependencies = try PostStoreDependencies.live(
///     PostStoreConfiguration(store: try StoreSpec(parsing: "posts.sqlite"), source: .file(path: "posts.json"))
/// )
/// let report = try await dependencies.syncService.sync()
/// ```
public struct PostStoreDependencies: Sendable {
    /// Where posts are kept.
    public let store: any PostStoreProtocol
    /// Where a sync takes posts from.
    public let dataService: any PostDataService
    /// What dates and times syncs, and what waits sleep on.
    public let clock: any ClockProtocol
    /// Syncs `store` from `dataService`.
    public let syncService: SyncService

    /// Assembles a graph from given parts, for tests and for apps with parts of their own.
    ///
    /// - Parameters:
    ///   - store: Where posts are kept.
    ///   - dataService: Where a sync takes posts from.
    ///   - clock: What dates and times syncs.
    ///   - logger: Where syncs are logged; `nil` (the default) logs nothing.
    public init(
        store: any PostStoreProtocol,
        dataService: any PostDataService,
        clock: any ClockProtocol,
        logger: Logger? = nil
    ) {
        self.init(
            store: store,
            dataService: dataService,
            clock: clock,
            syncService: SyncService(dataService: dataService, store: store, clock: clock, logger: logger)
        )
    }

    /// Assembles a graph whose sync service was made elsewhere (by the composition root's container).
    package init(
        store: any PostStoreProtocol,
        dataService: any PostDataService,
        clock: any ClockProtocol,
        syncService: SyncService
    ) {
        self.store = store
        self.dataService = dataService
        self.clock = clock
        self.syncService = syncService
    }
}
