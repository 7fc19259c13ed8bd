import PostStore
public import Testing

/// One rule of the contract of `PostStoreProtocol`, as a check that runs on any engine.
///
/// A check opens a new, empty store through a ``ContractSubject``, exercises it and records what it finds with
/// Swift Testing's `#expect` and `#require`, as issues of whichever test runs it. A check that needs what the subject
/// cannot do (a second instance, the write lock) is skipped: it records a warning with the reason and cancels the
/// running test case, so the result says so. Every check is in ``PostStoreContract/checks``; the module's article,
/// <doc:PostStoreConformance>, shows the test that runs them all on an engine.
public struct ContractCheck: Sendable, Identifiable, CustomStringConvertible, CustomTestStringConvertible {
    /// The check's name, unique in the suite: `upsertCountsInsertedUpdatedAndUnchanged`.
    public let name: String

    /// The rule the check holds the engine to, in a sentence.
    public let summary: String

    /// The settings of the store the check opens first.
    let storeOptions: ContractStoreOptions

    /// The check: the new store, and the run's other capabilities.
    let body: @Sendable (_ store: any PostStoreProtocol, _ run: ContractRun) async throws -> Void

    /// Declares a check.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - summary: The rule.
    ///   - storeOptions: The settings of the first store; `ContractStoreOptions.patient` unless the check is about
    ///     the lock timeout.
    ///   - body: The check.
    init(
        _ name: String,
        _ summary: String,
        storeOptions: ContractStoreOptions = .patient,
        body: @escaping @Sendable (_ store: any PostStoreProtocol, _ run: ContractRun) async throws -> Void
    ) {
        self.name = name
        self.summary = summary
        self.storeOptions = storeOptions
        self.body = body
    }

    /// The check's ``name``, which identifies it among a test's arguments.
    public var id: String { name }

    /// The check's ``name``.
    public var description: String { name }

    /// The check's ``name``, as a test's argument shows it.
    public var testDescription: String { name }

    /// Runs the check on a new, empty store of a subject, inside the current test.
    ///
    /// The subject makes a location and a store there; the check runs; the subject removes the location's stores.
    /// What the check finds is recorded as issues of the current test, so call it from a test function. When the
    /// check needs a capability the subject lacks, it records a warning with the reason and cancels the current test
    /// case (see `Test.cancel(_:sourceLocation:)`), which structured results show as skipped; when it leaves out one
    /// part for lack of a capability, it runs the rest and records a warning that names the part.
    ///
    /// The module's article, <doc:PostStoreConformance>, shows the test that calls it for every check.
    ///
    /// - Parameter subject: The engine under test.
    /// - Throws: What the subject throws, an error the check did not expect from the store, an error of a failed
    ///   `#require`, or the error that cancels the test case when the subject lacks a capability the check needs.
    public func run<Subject: ContractSubject>(on subject: Subject) async throws {
        let location = try await subject.makeLocation()
        do {
            let store = try await subject.makeStore(at: location, options: storeOptions)
            try await body(store, ContractRun(check: name, subject: subject, location: location))
        } catch {
            try? await subject.removeStores(at: location)
            throw error
        }
        try await subject.removeStores(at: location)
        // The location may own what it names (a temporary folder deleted when released): keep it to the end.
        withExtendedLifetime(location) {}
    }
}
