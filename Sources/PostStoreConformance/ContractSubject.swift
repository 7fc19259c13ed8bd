public import Foundation
public import PostStore

/// An engine under test: what the contract suite needs from it to run a check.
///
/// A subject makes a new, empty store for each check, at a location of its own (a temporary file, a database
/// created for the check); that much every subject does. The rest is optional, and a check that needs what a subject
/// cannot do is skipped for it — reported as cancelled, with the reason, never passed in silence:
///
/// - ``reopenStore(at:options:)``: another instance on the same data, as a second process would open it. The
///   checks of persistence and of writers in two processes need it; an engine whose data lives only as long as one
///   instance (in memory) leaves it out.
/// - ``holdWriteLock(at:)``: the engine's write lock taken as another process would take it. The checks of waiting,
///   timing out (`storeBusy`) and cancelling a waiting write need it.
/// - ``storedFiles(at:)``: the bytes the store keeps, for the checks that a failed write changes nothing on disk.
///
/// A check that merely reads back through a second instance, or compares the stored bytes, as one part among
/// others runs its other parts and records a warning that names the part it left out.
///
/// The module's article, <doc:PostStoreConformance>, shows a subject for an engine that keeps its posts in a file.
///
/// An engine that keeps nothing outside the instance needs one method; its location is `Void`:
///
/// ```swift
/// struct MyMemorySubject: ContractSubject {
///     func makeStore(at _: Void, options _: ContractStoreOptions) -> any PostStoreProtocol { MyMemoryStore() }
/// }
/// ```
public protocol ContractSubject: Sendable {
    /// Where one check's store keeps its data: a file's path, a folder, a database's name; `Void` for an engine
    /// that keeps nothing outside the instance.
    associatedtype Location: Sendable = Void

    /// A new location with no store there yet, for one run of one check.
    ///
    /// The default implementation, for subjects whose location is `Void`, does nothing.
    ///
    /// - Returns: The location; each call returns a different one, so checks can run in parallel.
    /// - Throws: Any error, which fails the check.
    func makeLocation() async throws -> Location

    /// Opens a new, empty store at a location, the first instance there.
    ///
    /// - Parameters:
    ///   - location: A location from ``makeLocation()``.
    ///   - options: Settings for the instance, such as how long its writes wait for another process's lock.
    /// - Returns: The store.
    /// - Throws: Any error, which fails the check.
    func makeStore(at location: Location, options: ContractStoreOptions) async throws -> any PostStoreProtocol

    /// Opens another instance on the data of the store made at a location, as a second process would open it.
    ///
    /// It may be called before the first instance has written anything. The default implementation returns `nil`:
    /// the checks that need a second instance are skipped.
    ///
    /// - Parameters:
    ///   - location: A location where ``makeStore(at:options:)`` made a store.
    ///   - options: Settings for the instance.
    /// - Returns: The other instance, or `nil` when the engine's data lasts only as long as one instance.
    /// - Throws: Any error, which fails the check.
    func reopenStore(at location: Location, options: ContractStoreOptions) async throws -> (any PostStoreProtocol)?

    /// Takes the write lock of the store at a location as another process would, and holds it until the check
    /// releases it.
    ///
    /// A write of the store's instances must then wait for the lock, up to their lock timeout. The default
    /// implementation returns `nil`: the checks of locking, timing out and cancelling are skipped.
    ///
    /// - Parameter location: A location where ``makeStore(at:options:)`` made a store.
    /// - Returns: The held lock, or `nil` when the engine has no lock that another process could hold.
    /// - Throws: Any error, which fails the check.
    func holdWriteLock(at location: Location) async throws -> ContractWriteLock?

    /// The bytes the store at a location keeps, by file name (or any other name the engine's storage has).
    ///
    /// The checks of failed writes compare them before and after to prove that nothing was written. The default
    /// implementation returns `nil`, and those comparisons are left out.
    ///
    /// - Parameter location: A location where ``makeStore(at:options:)`` made a store.
    /// - Returns: The stored bytes, or `nil` when the subject cannot read them.
    /// - Throws: Any error, which fails the check.
    func storedFiles(at location: Location) async throws -> [String: Data]?

    /// Deletes what the check's stores left at a location, once the check has finished with them, or before a
    /// check makes a new store at the same place (a store made there next must be a new one, with an identity of
    /// its own).
    ///
    /// The default implementation does nothing; a check that makes a store again where one was, and finds the old
    /// one's posts, leaves that part out with a warning.
    ///
    /// - Parameter location: A location from ``makeLocation()``.
    /// - Throws: Any error, which fails the check.
    func removeStores(at location: Location) async throws
    /// Whether the engine keeps text holding NUL characters (U+0000).
    ///
    /// The contract lets an engine whose storage cannot hold one (PostgreSQL's `text`) refuse a write that holds
    /// one, whole, with `invalidData` naming the post. For such an engine (`false`), the checks of text
    /// check that refusal, then run on the same text without its NUL characters. The default is `true`.
    var keepsNULCharacters: Bool { get }
}

extension ContractSubject where Location == Void {
    /// Does nothing: a store that keeps nothing outside the instance needs no location.
    public func makeLocation() async throws {}
}

extension ContractSubject {
    /// Returns `nil`: the subject cannot open a second instance on a store's data.
    ///
    /// - Parameters:
    ///   - location: Unused.
    ///   - options: Unused.
    /// - Returns: `nil`.
    public func reopenStore(
        at location: Location,
        options: ContractStoreOptions
    ) async throws
        -> (any PostStoreProtocol)?
    { nil }

    /// Returns `nil`: the subject cannot hold its engine's write lock.
    ///
    /// - Parameter location: Unused.
    /// - Returns: `nil`.
    public func holdWriteLock(at location: Location) async throws -> ContractWriteLock? { nil }

    /// Returns `nil`: the subject cannot read its stores' bytes.
    ///
    /// - Parameter location: Unused.
    /// - Returns: `nil`.
    public func storedFiles(at location: Location) async throws -> [String: Data]? { nil }

    /// Does nothing.
    ///
    /// - Parameter location: Unused.
    public func removeStores(at location: Location) async throws {}
    /// `true`: the engine keeps every text, NUL characters included.
    public var keepsNULCharacters: Bool { true }
}
