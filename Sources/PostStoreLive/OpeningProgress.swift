package import PostStore

/// Where the live store reports long work that opening it does, such as rebuilding a stale search index: register
/// one in the graph before the store is resolved (`poststore migrate` draws it). Without one, nothing is reported.
package struct OpeningProgress: Sendable {
    /// Called with each update.
    package let report: @Sendable (WorkProgress) -> Void

    /// Creates a destination for the updates.
    package init(report: @escaping @Sendable (WorkProgress) -> Void) {
        self.report = report
    }
}
