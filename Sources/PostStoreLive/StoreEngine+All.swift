import PostStore
public import PostStoreEngines
import PostStoreJSONFile
import PostStoreSQLite

#if PostgreSQL
import PostStorePostgres
#endif

extension StoreEngine {
    /// Every engine this build knows, in the order help texts list them: the one table a store spec is read by.
    ///
    /// Adding an engine is one module that declares its `StoreEngine` entry, and one line here. PostgreSQL is in it
    /// when the package's `PostgreSQL` trait is on, as it is by default.
    public static let all: [StoreEngine] = {
        #if PostgreSQL
        [.sqlite, .json, .postgres, .memory]
        #else
        [.sqlite, .json, .memory]
        #endif
    }()

    /// The schemes of the engines a trait of the package leaves out of this build, and the trait: a spec that names
    /// one is told what to enable rather than that the scheme is unknown.
    static let schemesLeftOut: [String: String] = {
        #if PostgreSQL
        [:]
        #else
        ["postgres": "PostgreSQL", "postgresql": "PostgreSQL"]
        #endif
    }()
}
