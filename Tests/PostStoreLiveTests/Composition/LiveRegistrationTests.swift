import Foundation
import InMemoryLogging
import Logging
import PostStore
import PostStoreContainer
import PostStoreLive
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// The composition root's registration (`registerLive`) and live graph (`PostStoreDependencies.live`): what a scope
/// overrides replaces only that, and a configuration's store and source are the ones synced. The container itself
/// is tested in `DependencyStoreTests`, in PostStoreTests.
@Suite struct LiveRegistrationTests {
    @Test func overridingOnlyTheClockOrTheLoggerKeepsTheLiveStore() async throws {
        let container = DependencyStore()
        container.registerLive(
            PostStoreConfiguration(store: StoreSpec(.memory), source: .file(path: "/none"))
        )
        let rootStore = try container.resolve((any PostStoreProtocol).self)

        let scoped = try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(TestClock(), for: (any ClockProtocol).self)
                $0.register(Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, for: Logger.self)
            } operation: {
                try DependencyStore.current.resolve((any PostStoreProtocol).self)
            }
        }

        #expect(ObjectIdentifier(scoped as AnyObject) == ObjectIdentifier(rootStore as AnyObject))
    }

    @Test func theLiveRegistrationWiresASyncServiceOverTheScopesOverrides() async throws {
        let directory = try TemporaryDirectory()
        let container = DependencyStore()
        container.registerLive(
            PostStoreConfiguration(
                store: StoreSpec(.sqlite, path: directory.file("live.sqlite")),
                source: .file(path: "/none")
            )
        )
        let store = InMemoryPostStore()

        let report = try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(store, for: (any PostStoreProtocol).self)
                $0.register(StubPostDataService(posts: SamplePosts.make(count: 4)), for: (any PostDataService).self)
            } operation: {
                try await DependencyStore.current.resolve(SyncService.self).sync()
            }
        }

        #expect(report.inserted == 4)
        #expect(try await store.count() == 4)
        #expect(try directory.entries().isEmpty, "the live SQLite store was never opened")
        #expect(try container.resolve((any PostDataService).self).source == "/none")
    }

    /// The library logs nowhere unless given a logger: without one, `registerLive` registers none, and a sync
    /// resolved from the container logs nothing; given one, it is the one registered and a sync logs to it.
    @Test func aLoggerIsRegisteredOnlyWhenOneIsGiven() async throws {
        let silent = DependencyStore()
        silent.registerLive(PostStoreConfiguration(store: StoreSpec(.memory), source: .file(path: "/none")))
        let missing = #expect(throws: PostStoreError.self) { try silent.resolve(Logger.self) }
        #expect(missing?.code == .missingDependency)

        let lines = InMemoryLogHandler()
        let logged = DependencyStore()
        logged.registerLive(
            PostStoreConfiguration(store: StoreSpec(.memory), source: .file(path: "/none")),
            logger: Logger(label: "given") { _ in lines }
        )
        #expect(try logged.resolve(Logger.self).label == "given")

        for container in [silent, logged] {
            try await DependencyStore.$current.withValue(container) {
                try await withDependencies {
                    $0.register(StubPostDataService(posts: SamplePosts.make(count: 2)), for: (any PostDataService).self)
                } operation: {
                    try await DependencyStore.current.resolve(SyncService.self).sync()
                }
            }
        }
        #expect(lines.entries.map(\.message.description) == ["Synced"], "one line, from the container given a logger")
    }

    @Test func theLiveGraphSyncsAFileIntoTheConfiguredStore() async throws {
        let directory = try TemporaryDirectory()
        try SamplePosts.json(SamplePosts.make(count: 5)).write(to: URL(fileURLWithPath: directory.file("in.json")))
        let configuration = PostStoreConfiguration(
            store: StoreSpec(.sqlite, path: directory.file("posts.sqlite")),
            source: .file(path: directory.file("in.json"))
        )

        let dependencies = try PostStoreDependencies.live(configuration)
        let report = try await dependencies.syncService.sync()

        #expect(report.inserted == 5)
        #expect(try await dependencies.store.count() == 5)
        #expect(dependencies.dataService.source == directory.file("in.json"))
    }
}
