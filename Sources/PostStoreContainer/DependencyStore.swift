import PostStore

/// A small typed container: a factory registered per type, resolved by type, with overrides scoped to a task.
///
/// For apps that would rather not pass every dependency through initializers. Register the live graph once at
/// launch (`registerLive(_:logger:)` does it from a `PostStoreConfiguration`), then resolve by type anywhere, or
/// declare `@Injected var store: any PostStoreProtocol` (see ``Injected``).
///
/// Which container a task sees is a task-local value, ``current``: the process's ``root`` unless code runs inside
/// ``withDependencies(isolation:_:operation:)``, which layers a child container over the current one for that
/// operation and every child task it starts (`async let`, task groups, `Task { }`; not `Task.detached`). Tests
/// override a type there and see their own instance even while other tests, in parallel, override the same type.
///
/// For example:
///
/// ```swift
/// DependencyStore.root.register((any PostStoreProtocol).self) { _ in try SQLitePostStore(path: "posts.sqlite") }
///
/// // In a test:
/// try await withDependencies {
///     $0.register(InMemoryPostStore(), for: (any PostStoreProtocol).self)
/// } operation: {
///     let store = try DependencyStore.current.resolve((any PostStoreProtocol).self)  // the in-memory store
///     print(try await store.count())  // 0
/// }
/// ```
///
/// Lifetimes: a ``Lifetime/singleton`` is made once and shared, by the container that registers it and every scope
/// below — except in a scope that overrides something it depends on (directly or through other types): there it is
/// made again from the scope's overrides and kept for that scope. So a test overriding the store gets its own
/// `SyncService`, while an HTTP client nobody overrides stays one instance. A ``Lifetime/newInstance`` factory runs
/// on every resolution. An instance registered directly is returned as it is. A factory should resolve what it
/// needs while it runs (that is how the container learns what it depends on).
public final class DependencyStore: Sendable {
    /// How often a registered factory runs.
    public enum Lifetime: Sendable, Hashable {
        /// Once per container that resolves the type; later resolutions return the same instance.
        case singleton
        /// On every resolution.
        case newInstance
    }

    private struct Registration: Sendable {
        /// Tells a registration from the one that replaced it, so a value its factory was still making when it
        /// was replaced is not kept.
        let id = RegistrationCounter.next()
        let typeName: String
        let lifetime: Lifetime
        let make: @Sendable (DependencyStore) throws -> any Sendable
    }

    /// A singleton made, with every type it resolved while it was made (transitively).
    private struct Made: Sendable {
        let value: any Sendable
        let dependencies: Set<ObjectIdentifier>
    }

    private struct State: Sendable {
        var registrations: [ObjectIdentifier: Registration] = [:]
        var singletons: [ObjectIdentifier: Made] = [:]
    }

    /// How many containers are above this one; the root's is 0.
    private let depth: Int

    /// The container this one overrides, if any; resolution falls back to it.
    public let parent: DependencyStore?

    private let state = LockedState(State())

    /// The process's top-level container: what ``current`` is outside any override scope. Apps register their live
    /// graph here at launch.
    public static let root = DependencyStore()

    /// The container the current task sees: ``root``, or the innermost
    /// ``withDependencies(isolation:_:operation:)`` scope.
    @TaskLocal public static var current: DependencyStore = root

    /// Creates an empty container.
    ///
    /// - Parameter parent: A container to fall back to for types this one does not register.
    public init(parent: DependencyStore? = nil) {
        self.parent = parent
        depth = parent.map { $0.depth + 1 } ?? 0
    }

    /// Registers a factory for a type, replacing any earlier registration of the type in this container.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, usually a protocol existential such as `(any PostStoreProtocol).self`.
    ///   - lifetime: Whether the factory runs once per container (the default) or on every resolution.
    ///   - factory: Makes the value; it may resolve other types from the container it is given (the one the
    ///     resolution started in).
    public func register<Value: Sendable>(
        _ type: Value.Type,
        lifetime: Lifetime = .singleton,
        factory: @escaping @Sendable (DependencyStore) throws -> Value
    ) {
        let registration = Registration(typeName: Self.name(of: type), lifetime: lifetime, make: { try factory($0) })
        let key = ObjectIdentifier(type)
        state.withLock { state in
            state.registrations[key] = registration
            // Forget the type's singleton and every singleton made from it.
            state.singletons = state.singletons.filter { $0.key != key && !$0.value.dependencies.contains(key) }
        }
    }

    /// Registers an instance for a type: every resolution returns it.
    ///
    /// - Parameters:
    ///   - instance: The value.
    ///   - type: The type it is resolved as, for example `(any PostStoreProtocol).self`.
    public func register<Value: Sendable>(_ instance: Value, for type: Value.Type) {
        register(type, lifetime: .singleton) { _ in instance }
        state.withLock { $0.singletons[ObjectIdentifier(type)] = Made(value: instance, dependencies: []) }
    }

    /// Returns the value registered for a type here or in a parent container.
    ///
    /// - Parameters:
    ///   - type: The type, for example `(any PostStoreProtocol).self`.
    ///   - fileID: Where it is asked for, named in the error when nothing is registered; the caller's by default.
    ///   - line: The line it is asked for on; the caller's by default.
    /// - Returns: The instance: made by the registered factory, or the singleton made earlier in this container.
    /// - Throws: `PostStoreError.Code.missingDependency` naming the type, where it was asked for and every
    ///   registered type when nothing is registered for it (or when its factories depend on each other in a cycle),
    ///   or what the factory throws.
    public func resolve<Value: Sendable>(
        _ type: Value.Type = Value.self,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) throws -> Value {
        try resolve(type, askedFor: "\(fileID):\(line)")
    }

    /// ``resolve(_:fileID:line:)`` with the place it was asked for already written out.
    func resolve<Value: Sendable>(_ type: Value.Type, askedFor place: String) throws -> Value {
        let key = ObjectIdentifier(type)
        // A factory may resolve its own type from another container (a scope wrapping its parent's value); only
        // the same type in the same container again is a cycle.
        let link = ResolutionLink(container: ObjectIdentifier(self), key: key, name: Self.name(of: type))
        let chain = Self.resolutionChain
        if chain.contains(where: { $0.container == link.container && $0.key == key }) {
            let names = (chain.map(\.name) + [link.name]).joined(separator: " → ")
            throw PostStoreError(.missingDependency, "The factories form a cycle: \(names).")
        }
        let entry = try Self.$resolutionChain.withValue(chain + [link]) {
            try resolveEntry(key, named: Self.name(of: type), askedFor: place)
        }
        Self.resolutionRecord?.note(owner: entry.owner, dependencies: entry.dependencies.union([key]))
        return try Self.cast(entry.value, to: type)
    }

    /// Finds a singleton that is valid for this container, or makes the value; returns it with the container it
    /// belongs to and what it depends on.
    private func resolveEntry(
        _ key: ObjectIdentifier,
        named name: String,
        askedFor place: String
    ) throws -> (value: any Sendable, owner: DependencyStore, dependencies: Set<ObjectIdentifier>) {
        // Walk up to the registering container; a singleton kept on the way serves this container unless a
        // container below it overrides something it depends on.
        var overridden = Set<ObjectIdentifier>()
        var container: DependencyStore? = self
        var found: (registration: Registration, owner: DependencyStore)?
        while let current = container, found == nil {
            let (registration, made, keys) = current.state.withLock { state in
                (state.registrations[key], state.singletons[key], Set(state.registrations.keys))
            }
            if let made, made.dependencies.isDisjoint(with: overridden) {
                return (made.value, current, made.dependencies)
            }
            if let registration { found = (registration, current) }
            overridden.formUnion(keys)
            container = current.parent
        }
        guard let (registration, registeringContainer) = found else {
            throw PostStoreError(
                .missingDependency,
                "Nothing is registered for \(name), asked for at \(place). Registered: \(registeredTypeNames())."
            )
        }
        let record = ResolutionRecord(owner: registeringContainer)
        let value = try Self.$resolutionRecord.withValue(record) { try registration.make(self) }
        let (owner, dependencies) = record.result
        guard registration.lifetime == .singleton else { return (value, owner, dependencies) }
        // Two tasks making a singleton for the first time at once may both run its factory; one value is kept.
        let isCurrent = registeringContainer.state.withLock { $0.registrations[key]?.id == registration.id }
        guard isCurrent else { return (value, owner, dependencies) }
        let kept = owner.state.withLock { state in
            if let earlier = state.singletons[key] { return earlier }
            let made = Made(value: value, dependencies: dependencies)
            state.singletons[key] = made
            return made
        }
        return (kept.value, owner, kept.dependencies)
    }

    /// The types registered here and in every parent, sorted by name.
    public var registeredTypes: [String] {
        let here = state.withLock { $0.registrations.values.map(\.typeName) }
        return Set(here + (parent?.registeredTypes ?? [])).sorted()
    }

    // MARK: - Internals

    /// One type being resolved by one container.
    private struct ResolutionLink: Sendable {
        let container: ObjectIdentifier
        let key: ObjectIdentifier
        let name: String
    }

    /// The types being resolved by the current task, outermost first, to report a cycle instead of recursing.
    @TaskLocal private static var resolutionChain: [ResolutionLink] = []

    /// Tells the factory running in the current task, if any, that what it makes holds on to `container` (an
    /// ``Injected`` property captured it): the value then belongs to that container and is not shared above it.
    ///
    /// - Parameter container: The captured container.
    static func noteCaptured(_ container: DependencyStore) {
        resolutionRecord?.note(owner: container, dependencies: [])
    }

    /// What the factory running in the current task has resolved so far.
    @TaskLocal private static var resolutionRecord: ResolutionRecord?

    /// Collects, while a factory runs, the deepest container that provided anything it resolved and every type
    /// it resolved: a singleton belongs to that container and depends on those types.
    private final class ResolutionRecord: Sendable {
        private let state: LockedState<(owner: DependencyStore, dependencies: Set<ObjectIdentifier>)>

        init(owner: DependencyStore) {
            state = LockedState((owner, []))
        }

        func note(owner: DependencyStore, dependencies: Set<ObjectIdentifier>) {
            state.withLock { state in
                if owner.depth > state.owner.depth { state.owner = owner }
                state.dependencies.formUnion(dependencies)
            }
        }

        var result: (owner: DependencyStore, dependencies: Set<ObjectIdentifier>) { state.withLock { $0 } }
    }

    private func registeredTypeNames() -> String {
        let names = registeredTypes
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }

    private static func cast<Value>(_ value: any Sendable, to type: Value.Type) throws -> Value {
        guard let value = value as? Value else {
            throw PostStoreError(
                .missingDependency,
                "The factory registered for \(name(of: type)) made a \(Swift.type(of: value)), not a \(name(of: type))."
            )
        }
        return value
    }

    /// The type's name without its module, for example `PostStoreProtocol` for `(any PostStoreProtocol).self`.
    private static func name(of type: Any.Type) -> String {
        String(describing: type)
    }
}

/// Numbers registrations in the order they are made.
private enum RegistrationCounter {
    private static let last = LockedState<UInt64>(0)

    static func next() -> UInt64 {
        last.withLock { last in
            last += 1
            return last
        }
    }
}
