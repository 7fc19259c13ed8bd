import ArgumentParser
import Foundation
import PostStore
import PostStoreLive
import PostStoreSQLite

extension StoreSpec {
    /// Parses `--store`, `--from-store` or `--to-store` with the composition root's table of engines; a bad spec is
    /// a usage error.
    init(option text: String) throws(ValidationError) {
        do {
            self = try StoreSpec(parsing: text)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The store to use: the option, else `$POSTSTORE_STORE`, else the default SQLite file.
    static func resolve(_ option: String?, environment: [String: String]) throws(ValidationError) -> StoreSpec {
        if let option { return try StoreSpec(option: option) }
        if let variable = environment["POSTSTORE_STORE"], !variable.isEmpty {
            do {
                return try StoreSpec(option: variable)
            } catch {
                throw ValidationError("$POSTSTORE_STORE: \(error.message)")
            }
        }
        return StoreSpec(.sqlite, path: defaultPath(environment: environment))
    }

    /// `$XDG_DATA_HOME/poststore/posts.sqlite`, else `~/.local/share/poststore/posts.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/poststore/posts.sqlite"
    }
}
