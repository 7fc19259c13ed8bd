import ArgumentParser
import Foundation
import PostStore

/// Where `sync` takes posts from: an http(s) URL, a file, or `-` for standard input.
enum SourceSpec {
    /// The option, else `$POSTSTORE_SOURCE`, else JSONPlaceholder.
    static func resolve(
        _ option: String?,
        pageSize: Int?,
        environment: [String: String]
    ) throws(ValidationError) -> PostStoreConfiguration.Source {
        let text = option ?? environment["POSTSTORE_SOURCE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text else { return .http(HTTPPostDataService.defaultURL, pageSize: pageSize) }
        if text.afterCaseInsensitivePrefix("http://") != nil || text.afterCaseInsensitivePrefix("https://") != nil {
            guard let url = URL(string: text), url.host != nil else {
                throw ValidationError("The source \"\(text)\" is not a valid URL.")
            }
            return .http(url, pageSize: pageSize)
        }
        if text.scheme != nil {
            throw ValidationError(
                "Unsupported source \"\(text)\"; use an http(s) URL, a file path, or - for standard input."
            )
        }
        guard pageSize == nil else {
            throw ValidationError("--page-size applies to an http(s) source only, not to \"\(text)\".")
        }
        return .file(path: text)
    }
}
