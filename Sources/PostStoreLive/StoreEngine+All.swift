import PostStore
public import PostStoreEngines
import PostStoreJSONFile
import PostStorePostgres
import PostStoreSQLite

extension StoreEngine {
    /// Every engine this build knows, in the order help texts list them: the one table a store spec is read by.
    ///
    /// Adding an engine is one module that declares its `StoreEngine` entry, and one line here.
    public static let all: [StoreEngine] = [.sqlite, .json, .postgres, .memory]
}
