import Foundation
import PostStore
import PostStoreEngines
import Testing

/// One run of one check on one subject: what the check can do beside its store, each capability the subject lacks
/// reported rather than passed over.
struct ContractRun: Sendable {
    /// The check's name, for the reports.
    let check: String
    /// Whether the engine keeps text holding NUL characters (``ContractSubject/keepsNULCharacters``).
    let keepsNULCharacters: Bool

    private let reopen: @Sendable (ContractStoreOptions) async throws -> (any PostStoreProtocol)?
    private let lock: @Sendable () async throws -> ContractWriteLock?
    private let files: @Sendable () async throws -> [String: Data]?
    private let makeAgain: @Sendable () async throws -> any PostStoreProtocol

    init<Subject: ContractSubject>(check: String, subject: Subject, location: Subject.Location) {
        self.check = check
        keepsNULCharacters = subject.keepsNULCharacters
        makeAgain = {
            try await subject.removeStores(at: location)
            return try await subject.makeStore(at: location, options: .patient)
        }
        reopen = { options in try await subject.reopenStore(at: location, options: options) }
        lock = { try await subject.holdWriteLock(at: location) }
        files = { try await subject.storedFiles(at: location) }
    }

    /// A new store made where the check's store was, after the subject removed that one: a store deleted and
    /// made again at the same place. The check's store must not be used after it. `nil`, with a warning that names
    /// the part left out, when the subject's `removeStores(at:)` left the old store's posts in place.
    func storeMadeAgain(
        for part: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (any PostStoreProtocol)? {
        let store = try await makeAgain()
        guard try await store.count() == 0 else {
            skipped(part, because: "the subject's removeStores(at:) leaves the store's posts in place", sourceLocation)
            return nil
        }
        return store
    }

    /// Another instance on the store's data, as a second process would open it; the check is skipped (its test case
    /// cancelled) when the subject cannot open one.
    func secondInstance(
        _ options: ContractStoreOptions = .patient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> any PostStoreProtocol {
        guard let store = try await reopen(options) else {
            try skip(
                "it needs a second instance on the store's data, and the subject's reopenStore(at:options:) "
                    + "returns nil",
                sourceLocation
            )
        }
        return store
    }

    /// Another instance on the store's data for one part of the check, or `nil`, with a warning that names the part
    /// left out, when the subject cannot open one.
    func secondInstance(
        for part: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (any PostStoreProtocol)? {
        guard let store = try await reopen(.patient) else {
            skipped(part, because: "the subject's reopenStore(at:options:) returns nil", sourceLocation)
            return nil
        }
        return store
    }

    /// Another instance on the store's data, or the store itself, with a warning that names the part checked through
    /// one instance only, when the subject cannot open another.
    func secondInstance(
        orSame store: any PostStoreProtocol,
        for part: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> any PostStoreProtocol {
        try await secondInstance(for: part, sourceLocation: sourceLocation) ?? store
    }

    /// The engine's write lock, held as another process would; the check is skipped (its test case cancelled) when
    /// the subject cannot hold it.
    func holdWriteLock(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ContractWriteLock {
        guard let lock = try await lock() else {
            try skip(
                "it needs the engine's write lock held as another process would hold it, and the subject's "
                    + "holdWriteLock(at:) returns nil",
                sourceLocation
            )
        }
        return lock
    }

    /// The bytes the store keeps, or `nil`, with a warning that names the part left out, when the subject cannot
    /// read them.
    func storedFiles(
        for part: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Data]? {
        guard let files = try await files() else {
            skipped(part, because: "the subject's storedFiles(at:) returns nil", sourceLocation)
            return nil
        }
        return files
    }

    /// The store as a ``StoreDescribing``; the check is skipped (its test case cancelled) for a store that is not
    /// one (an engine outside this package cannot be: the protocol is the package's own).
    func describing(
        _ store: any PostStoreProtocol,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> any StoreDescribing {
        guard let describing = store as? any StoreDescribing else {
            try skip(
                "it reads the store through StoreDescribing, which \(type(of: store)) does not adopt",
                sourceLocation
            )
        }
        return describing
    }

    /// The changes since a token that the store has just made (its history cannot have moved past it); the check
    /// is skipped (its test case cancelled) when the store answers `mustRefetch`: it keeps no change history (as
    /// `PostStoreProtocol`'s default implementation), which the contract allows.
    func changesOfAStoreWithHistory(
        _ store: any PostStoreProtocol,
        since token: ChangeToken,
        limit: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> PostChanges {
        do {
            return try await store.changes(since: token, limit: limit)
        } catch let error as PostStoreError where error.code == .mustRefetch {
            try skip(
                "it needs a store that keeps a change history, and this one must refetch: \(error.message)",
                sourceLocation
            )
        }
    }

    /// Skips the whole check: records a warning with the reason, so that the console shows it (Swift Testing's
    /// console prints a cancelled test case as passed), and cancels the test case, so that structured results (the
    /// event stream, an IDE) show it as skipped.
    private func skip(_ reason: String, _ sourceLocation: SourceLocation) throws -> Never {
        let comment = Comment(rawValue: "Skipped \(check): \(reason).")
        Issue.record(comment, severity: .warning, sourceLocation: sourceLocation)
        try Test.cancel(comment, sourceLocation: sourceLocation)
    }

    /// Records a warning that a part of the check was not run.
    private func skipped(_ part: String, because reason: String, _ sourceLocation: SourceLocation) {
        Issue.record(
            "Not checked in \(check): \(part); \(reason).",
            severity: .warning,
            sourceLocation: sourceLocation
        )
    }
}
