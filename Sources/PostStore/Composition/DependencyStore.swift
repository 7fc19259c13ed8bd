import Synchronization

/// A small typed container: a factory registered per type, resolved by type, with overrides scoped to a task.
///
/// For apps that would rather not pass every dependency through initializers. Register the live graph once at
/// launch (``registerLive(_:)`` does it from a ``PostStoreConfiguration``), then resolve by type anywhere, or
/// declare `@Injected var store: any PostStoreProtocol` (see ``Injected``).
///
/// Which container a task sees is a task-local value, ``current``: the process's ``root`` unless code runs inside
/// ``withDependencies(_:operation:)``, which layers a child container over the current one for that operation and
/// every child task it starts (`async let`, task groups, `Task { }`; not `Task.detached`). Tests override a type
/// there and see their own instance even while other tests, in parallel, override the same type.
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
/// }
/// ```
///
/// Lifetimes: a ``Lifetime/singleton`` factory runs once per container that resolves it — the root for the app,
/// each `withDependencies` scope for itself, so no instance made under a test's overrides leaks to another test;
/// a ``Lifetime/newInstance`` factory runs on every resolution. An instance registered directly is returned as it
/// is, in the container that holds it and every scope below.
public final class DependencyStore: Sendable {
    /// How often a registered factory runs.
    public enum Lifetime: Sendable, Hashable {
        /// Once per container that resolves the type; later resolutions return the same instance.
        case singleton
        /// On every resolution.
        case newInstance
    }

    private struct Registration: Sendable {
        let typeName: String
        let lifetime: Lifetime
        let make: @Sendable (DependencyStore) throws -> any Sendable
    }

    private struct State: Sendable {
        var registrations: [ObjectIdentifier: Registration] = [:]
        var singletons: [ObjectIdentifier: any Sendable] = [:]
    }

    /// The container this one overrides, if any; resolution falls back to it.
    public let parent: DependencyStore?

    private let state = Mutex(State())

    /// The process's top-level container: what ``current`` is outside any override scope. Apps register their live
    /// graph here at launch.
    public static let root = DependencyStore()

    /// The container the current task sees: ``root``, or the innermost ``withDependencies(_:operation:)`` scope.
    @TaskLocal public static var current: DependencyStore = root

    /// Creates an empty container.
    ///
    /// - Parameter parent: A container to fall back to for types this one does not register.
    public init(parent: DependencyStore? = nil) {
        self.parent = parent
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
        state.withLock { state in
            state.registrations[ObjectIdentifier(type)] = registration
            state.singletons[ObjectIdentifier(type)] = nil
        }
    }

    /// Registers an instance for a type: every resolution returns it.
    ///
    /// - Parameters:
    ///   - instance: The value.
    ///   - type: The type it is resolved as, for example `(any PostStoreProtocol).self`.
    public func register<Value: Sendable>(_ instance: Value, for type: Value.Type) {
        register(type, lifetime: .singleton) { _ in instance }
        state.withLock { $0.singletons[ObjectIdentifier(type)] = instance }
    }

    /// Returns the value registered for a type here or in a parent container.
    ///
    /// - Parameter type: The type, for example `(any PostStoreProtocol).self`.
    /// - Returns: The instance: made by the registered factory, or the singleton made earlier in this container.
    /// - Throws: ``PostStoreError/Code/missingDependency`` naming the type and every registered type when nothing
    ///   is registered for it (or when its factories depend on each other in a cycle), or what the factory throws.
    public func resolve<Value: Sendable>(_ type: Value.Type = Value.self) throws -> Value {
        let key = ObjectIdentifier(type)
        let resolving = Self.resolving
        if resolving.contains(key) {
            throw PostStoreError(
                .missingDependency,
                "Resolving \(Self.name(of: type)) needs \(Self.name(of: type)) again: its factories form a cycle."
            )
        }
        if let cached = state.withLock({ $0.singletons[key] }) {
            return try Self.cast(cached, to: type)
        }
        guard let registration = registration(for: key) else {
            throw PostStoreError(
                .missingDependency,
                "Nothing is registered for \(Self.name(of: type)). Registered: \(registeredTypeNames())."
            )
        }
        let made = try Self.$resolving.withValue(resolving.union([key])) { try registration.make(self) }
        guard registration.lifetime == .singleton else { return try Self.cast(made, to: type) }
        // Two tasks resolving a singleton for the first time at once may both run its factory; one value is kept.
        let kept = state.withLock { state in
            if let earlier = state.singletons[key] { return earlier }
            state.singletons[key] = made
            return made
        }
        return try Self.cast(kept, to: type)
    }

    /// The types registered here and in every parent, sorted by name.
    public var registeredTypes: [String] {
        let here = state.withLock { $0.registrations.values.map(\.typeName) }
        return Set(here + (parent?.registeredTypes ?? [])).sorted()
    }

    // MARK: - Internals

    /// The types being resolved by the current task, to report a cycle instead of recursing forever.
    @TaskLocal private static var resolving: Set<ObjectIdentifier> = []

    private func registration(for key: ObjectIdentifier) -> Registration? {
        state.withLock { $0.registrations[key] } ?? parent?.registration(for: key)
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
