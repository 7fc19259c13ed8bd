/// Where a store's schema stands: the migrations applied to it and those opening it would still apply.
package struct MigrationStatus: Sendable, Equatable {
    /// The names of the applied migrations, in order (for example `0002_create_search_index.sql`).
    package var applied: [String]
    /// The names of the migrations opening the store would apply, in order.
    package var pending: [String]
    /// The schema version: the newest applied migration's.
    package var version: Int

    package init(applied: [String], pending: [String], version: Int) {
        self.applied = applied
        self.pending = pending
        self.version = version
    }
}
