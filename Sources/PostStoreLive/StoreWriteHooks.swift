/// What a program that handles signals is told while a write builds a new store or commits (the `poststore`
/// tool's signal handling): nothing, by default.
///
/// A library caller needs none of it: a write that fails or is cancelled removes its staged store itself, and one
/// that is killed leaves a staging folder that the next write of the same store removes.
package struct StoreWriteHooks: Sendable {
    /// A new store is being built in these files, inside `folder`, beside the store's path: a process stopped now
    /// should remove them (all but `lockFile`, removed last, which keeps other writers off the folder meanwhile).
    package var stagingBegan: @Sendable (_ files: [String], _ lockFile: String, _ folder: String) -> Void = { _, _, _ in
    }
    /// The staged files are no longer the process's to remove when stopped: they are published or removed.
    package var stagingEnded: @Sendable () -> Void = {}
    /// Runs the step that publishes a new store (it says whether it did), which a signal must not cut in two.
    package var committing: @Sendable (_ step: () throws -> Bool) throws -> Bool = { try $0() }
    /// A write into an existing store has committed durably.
    package var committed: @Sendable () -> Void = {}

    /// No hooks.
    package init() {}
}
