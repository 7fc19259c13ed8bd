import PostStore

/// Runs `operation` with some types resolved differently: in a child container of the current one, seen by this
/// task and the tasks it starts, and by nothing else.
///
/// The overrides end with the operation; other tasks — other tests running in parallel — never see them, even
/// when they override the same types at the same time.
///
/// For example:
///
/// ```swift
/// let count = try await withDependencies {
///     $0.register(InMemoryPostStore(posts: SamplePosts.make(count: 3)), for: (any PostStoreProtocol).self)
/// } operation: {
///     try await PostCounter().count()  // whose `@Injected var store` is the in-memory store
/// }
/// ```
///
/// - Parameters:
///   - isolation: The caller's actor, on which `configure` and `operation` run (for example the main actor).
///   - configure: Registers the overrides in the child container.
///   - operation: The work that sees them.
/// - Returns: What `operation` returns.
/// - Throws: What `configure` or `operation` throws.
public func withDependencies<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ configure: (DependencyStore) throws -> Void,
    operation: () async throws -> Result
) async rethrows -> Result {
    let scope = DependencyStore(parent: DependencyStore.current)
    try configure(scope)
    return try await DependencyStore.$current.withValue(scope, operation: operation, isolation: isolation)
}
