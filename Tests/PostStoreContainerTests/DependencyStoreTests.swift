import PostStore
import PostStoreContainer
import PostStoreTesting
import Synchronization
import Testing

/// The container: registration, lifetimes, errors, and overrides scoped to a task.
@Suite struct DependencyStoreTests {
    @Test func aSingletonIsMadeOncePerContainerAndANewInstanceEveryTime() throws {
        let container = DependencyStore()
        let made = Mutex(0)
        container.register((any PostStoreProtocol).self) { _ in
            made.withLock { $0 += 1 }
            return InMemoryPostStore()
        }
        container.register(Counter.self, lifetime: .newInstance) { _ in Counter() }

        let first = try container.resolve((any PostStoreProtocol).self)
        let second = try container.resolve((any PostStoreProtocol).self)

        #expect(identity(of: first) == identity(of: second))
        #expect(made.withLock { $0 } == 1)
        #expect(try container.resolve(Counter.self) !== container.resolve(Counter.self))
    }

    @Test func resolvingAnUnregisteredTypeNamesItAndWhatIsRegistered() {
        let container = DependencyStore()
        container.register(Counter.self) { _ in Counter() }
        container.register(InMemoryPostStore(), for: (any PostStoreProtocol).self)

        let line = #line + 1
        let error = #expect(throws: PostStoreError.self) { try container.resolve((any PostDataService).self) }

        #expect(error?.code == .missingDependency)
        #expect(
            error?.message == "Nothing is registered for PostDataService, asked for at "
                + "PostStoreContainerTests/DependencyStoreTests.swift:\(line). Registered: Counter, PostStoreProtocol."
        )
        let empty = #expect(throws: PostStoreError.self) { try DependencyStore().resolve(Counter.self) }
        #expect(empty?.message.hasSuffix("Registered: nothing.") == true)
    }

    @Test func factoriesThatNeedEachOtherAreReportedAsACycle() {
        let container = DependencyStore()
        container.register(Counter.self) { container in
            _ = try container.resolve(Pair.self)
            return Counter()
        }
        container.register(Pair.self) { container in Pair(counter: try container.resolve()) }

        let error = #expect(throws: PostStoreError.self) { try container.resolve(Counter.self) }

        #expect(error?.code == .missingDependency)
        #expect(error?.message == "The factories form a cycle: Counter → Pair → Counter.")
    }

    @Test func anOverrideIsSeenInsideItsScopeAndItsChildTasksOnly() async throws {
        let container = DependencyStore()
        container.register(InMemoryPostStore(), for: (any PostStoreProtocol).self)
        let outer = try container.resolve((any PostStoreProtocol).self)
        let override = InMemoryPostStore(posts: SamplePosts.make(count: 3))

        try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(override, for: (any PostStoreProtocol).self)
            } operation: { () async throws in
                #expect(try currentStoreIdentity() == identity(of: override))
                async let child = currentStoreIdentity()
                #expect(try await child == identity(of: override))
                let task = Task { try currentStoreIdentity() }
                #expect(try await task.value == identity(of: override))
            }
            #expect(try currentStoreIdentity() == identity(of: outer))
        }
    }

    /// What a global container swapped for each test gets wrong: many tasks override the same type at the same
    /// time, each holding its scope across suspension points, and each must see only its own.
    @Test func parallelOverridesOfOneTypeDoNotSeeEachOther() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...50 {
                group.addTask {
                    let mine = InMemoryPostStore(posts: [Post(userId: 1, id: id, title: "", body: "")])
                    try await withDependencies {
                        $0.register(mine, for: (any PostStoreProtocol).self)
                    } operation: {
                        for _ in 0..<5 {
                            await Task.yield()
                            let store = try DependencyStore.current.resolve((any PostStoreProtocol).self)
                            #expect(try await store.query(.all).map(\.id) == [id])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aSingletonIsSharedWithScopesThatOverrideNothingItNeeds() async throws {
        let container = DependencyStore()
        container.register(Counter.self) { _ in Counter() }
        let rootCounter = try container.resolve(Counter.self)

        let scoped = try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(InMemoryPostStore(), for: (any PostStoreProtocol).self)
            } operation: {
                try DependencyStore.current.resolve(Counter.self)
            }
        }

        #expect(scoped === rootCounter)
    }

    /// The root made its `Wrapper` (over a `Pair` over a `Counter`) before the test's scope overrides `Counter`:
    /// the scope must get a `Wrapper` made from its own `Counter`, and the root must keep its own.
    @Test func aSingletonIsMadeAgainInAScopeThatOverridesWhatItNeedsEvenTransitively() async throws {
        let container = DependencyStore()
        container.register(Counter.self) { _ in Counter() }
        container.register(Pair.self) { container in Pair(counter: try container.resolve()) }
        container.register(Wrapper.self) { container in Wrapper(pair: try container.resolve()) }
        let rootWrapper = try container.resolve(Wrapper.self)
        let override = Counter()

        let (first, second) = try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(override, for: Counter.self)
            } operation: {
                (try DependencyStore.current.resolve(Wrapper.self), try DependencyStore.current.resolve(Wrapper.self))
            }
        }

        #expect(first.pair.counter === override)
        #expect(first.pair === second.pair, "a singleton within the scope")
        #expect(try container.resolve(Wrapper.self).pair === rootWrapper.pair)
        #expect(rootWrapper.pair.counter !== override)
    }

    @Test func injectedKeepsTheScopeItsOwnerWasMadeIn() async throws {
        let override = InMemoryPostStore(posts: SamplePosts.make(count: 2))
        let counter = await withDependencies {
            $0.register(override, for: (any PostStoreProtocol).self)
        } operation: {
            PostCounter()
        }

        // Used outside the scope, it still has the scope's store.
        #expect(try await counter.count() == 2)
        #expect(try identity(of: counter.$store.resolve()) == identity(of: override))

        let unwired = DependencyStore.$current.withValue(DependencyStore()) { PostCounter() }
        let error = #expect(throws: PostStoreError.self) { try unwired.$store.resolve() }
        #expect(error?.code == .missingDependency)
        // Where it was asked for is the property's declaration, not this call.
        #expect(
            error?.message == "Nothing is registered for PostStoreProtocol, asked for at \(PostCounter.declaration). "
                + "Registered: nothing."
        )
    }

    /// A root singleton whose value captures the current container (through `@Injected`) and is first resolved
    /// inside a test's scope must stay in that scope: otherwise the root would keep the test's store.
    @Test func aValueThatCapturesItsScopeIsNotSharedAboveIt() async throws {
        let container = DependencyStore()
        container.register(InMemoryPostStore(), for: (any PostStoreProtocol).self)
        container.register(PostCounter.self) { _ in PostCounter() }

        let inScope = try await DependencyStore.$current.withValue(container) {
            try await withDependencies {
                $0.register(InMemoryPostStore(posts: SamplePosts.make(count: 3)), for: (any PostStoreProtocol).self)
            } operation: {
                try await DependencyStore.current.resolve(PostCounter.self).count()
            }
        }
        let inRoot = try await DependencyStore.$current.withValue(container) {
            try await DependencyStore.current.resolve(PostCounter.self).count()
        }

        #expect((inScope, inRoot) == (3, 0))
    }

    @Test func aScopeMayWrapItsParentsValueOfTheSameType() throws {
        let parent = DependencyStore()
        parent.register(Int.self) { _ in 41 }
        let child = DependencyStore(parent: parent)
        child.register(Int.self) { _ in try parent.resolve(Int.self) + 1 }

        #expect(try child.resolve(Int.self) == 42)
    }

    @Test func reRegisteringATypeForgetsTheSingletonsMadeFromIt() throws {
        let container = DependencyStore()
        container.register(Counter.self) { _ in Counter() }
        container.register(Pair.self) { container in Pair(counter: try container.resolve()) }
        let before = try container.resolve(Pair.self)
        let replacement = Counter()

        container.register(replacement, for: Counter.self)

        #expect(try container.resolve(Pair.self).counter === replacement)
        #expect(before.counter !== replacement)
    }
}

/// A reference type, to tell instances apart.
private final class Counter: Sendable {}

/// A type whose factory needs a `Counter`.
private final class Pair: Sendable {
    let counter: Counter

    init(counter: Counter) { self.counter = counter }
}

/// A type whose factory needs a `Pair`.
private struct Wrapper: Sendable {
    let pair: Pair
}

/// An app-style type with an injected store, as the guide's `PostCounter` (which DocumentationSnippetTests runs).
private struct PostCounter {
    /// Where `store` is declared: the next line.
    static let declaration = "PostStoreContainerTests/DependencyStoreTests.swift:\(#line + 1)"
    @Injected var store: any PostStoreProtocol

    func count() async throws -> Int { try await store.count() }
}

private func identity(of store: any PostStoreProtocol) -> ObjectIdentifier {
    ObjectIdentifier(store as AnyObject)
}

private func currentStoreIdentity() throws -> ObjectIdentifier {
    identity(of: try DependencyStore.current.resolve((any PostStoreProtocol).self))
}
