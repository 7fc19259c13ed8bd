import PostStore

/// A property resolved from the ``DependencyStore`` that was current when its owner was created.
///
/// The container is captured when the owning value is initialized, so an object made inside
/// ``withDependencies(isolation:_:operation:)`` keeps that scope's overrides wherever it is used later; the value is
/// resolved on first access and kept.
///
/// For example:
///
/// ```swift
/// struct PostCounter {
///     @Injected var store: any PostStoreProtocol
///     func count() async throws -> Int { try await store.count() }
/// }
/// ```
///
/// It works in structs, actors and main-actor classes. A `Sendable` final class cannot hold a wrapped `var`; keep
/// the wrapper in a constant instead: `private let store = Injected<any PostStoreProtocol>()`, read as
/// `store.wrappedValue`.
///
/// Accessing a property whose type nothing registers **traps**: it stops the program with the ``DependencyStore``
/// error, which names the type, the file and line of the property's declaration, and what is registered
/// (`Nothing is registered for PostStoreProtocol, asked for at MyApp/PostCounter.swift:12. Registered: nothing.`).
/// Like a missing `EnvironmentObject`, it is a wiring mistake to fix in code, not a condition to handle. In a test
/// run that stops every test, so tests of wiring should use ``projectedValue`` (`try $store.resolve()`), which
/// throws the same error instead.
@propertyWrapper
public struct Injected<Value: Sendable>: Sendable {
    /// Resolves the wrapped property on demand, once.
    public final class Resolver: Sendable {
        private let container: DependencyStore
        private let resolved = LockedState<Value?>(nil)
        /// Where the property is declared (`Module/File.swift:LINE`), for the error when nothing is registered.
        let declaration: String

        init(container: DependencyStore, declaration: String) {
            self.container = container
            self.declaration = declaration
        }

        /// Resolves the value, or returns the one resolved before.
        ///
        /// - Returns: The value registered for `Value` in the captured container.
        /// - Throws: `PostStoreError.Code.missingDependency`, naming the type and where the property is declared,
        ///   when nothing is registered for it.
        public func resolve() throws -> Value {
            if let value = resolved.withLock({ $0 }) { return value }
            let value = try container.resolve(Value.self, askedFor: declaration)
            return resolved.withLock { kept in
                if let earlier = kept { return earlier }
                kept = value
                return value
            }
        }
    }

    private let resolver: Resolver
    private let file: StaticString
    private let line: UInt

    /// Captures ``DependencyStore/current``.
    ///
    /// - Parameters:
    ///   - fileID: Where the property is declared, named when nothing is registered for it; the declaration's own
    ///     file by default (`@Injected var store` passes it).
    ///   - line: The line of the declaration; its own by default.
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        let container = DependencyStore.current
        // An owner made by a factory keeps this container: the container must not share it above this scope.
        DependencyStore.noteCaptured(container)
        resolver = Resolver(container: container, declaration: "\(fileID):\(line)")
        self.file = fileID
        self.line = line
    }

    /// The resolved value; traps when nothing is registered for `Value` (see ``Injected``).
    public var wrappedValue: Value {
        do {
            return try resolver.resolve()
        } catch {
            fatalError("@Injected \(Value.self): \(error)", file: file, line: line)
        }
    }

    /// The resolver, to resolve with a thrown error rather than a stop: `try $store.resolve()`.
    public var projectedValue: Resolver { resolver }
}
