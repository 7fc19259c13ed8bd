import Foundation

/// A build whose measures a run times: this harness with its `poststore`, or a baseline's (`--baseline-harness`),
/// measured side by side in the same runs.
struct BenchmarkBuild {
    /// The harness executable that runs the child measures (`--measure NAME`).
    let harness: String
    /// The `poststore` executable for the whole-process measures.
    let poststore: String
    /// The folder of the stores its re-syncs start from: each build's are made by its own first syncs, so that a
    /// baseline never opens a store that a newer schema wrote.
    let storeFolder: String
    /// Whether it is the baseline, whose missing measures show as "—" rather than fail the run.
    let isBaseline: Bool

    /// Whether its `poststore` can run.
    var hasPostStore: Bool { FileManager.default.isExecutableFile(atPath: poststore) }
}

/// A baseline's harness or `poststore` does not know a measure (it was built before the measure existed): the table
/// shows "—" for it.
struct MeasureLacking: Error {}
