import ArgumentParser
import Foundation
import PostStoreHTTP
import PostStoreLive

extension PostStoreConfiguration.Source {
    /// Where `sync` takes posts from: the option, else `$POSTSTORE_SOURCE`, else JSONPlaceholder; a bad source is a
    /// usage error.
    static func resolve(
        _ option: String?,
        pageSize: Int?,
        environment: [String: String]
    ) throws(ValidationError) -> Self {
        let text = option ?? environment["POSTSTORE_SOURCE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text else { return .http(HTTPPostDataService.defaultURL, pageSize: pageSize) }
        do {
            return try Self(parsing: text, pageSize: pageSize)
        } catch {
            // A page size with a file is the CLI's own usage error: it names the option.
            if pageSize != nil, (try? Self(parsing: text))?.isFile == true {
                throw ValidationError("--page-size applies to an http(s) source only, not to \"\(text)\".")
            }
            throw ValidationError(error.message)
        }
    }
}
