import Foundation
import PostStore

/// Why a store's file cannot be in its folder: the folder does not exist, or its path leads to something else.
///
/// Both name the folder as the user typed it. For example:
///
/// ```swift
/// StoreFolderProblem(ofStore: "nofolder/x.sqlite")  // .missing("nofolder")
/// ```
enum StoreFolderProblem: Equatable {
    /// No folder at this path: `mkdir -p` makes it.
    case missing(String)
    /// The path, or a folder on it, is a file.
    case notAFolder(String)

    /// The problem with the folder of the store at `path`; `nil` when the folder is there, when the path has no
    /// folder part, or when the file system does not say (no permission to look: the engine's own error then
    /// names what it finds).
    init?(ofStore path: String) {
        let folder = path.parentFolderPath
        guard !folder.isEmpty else { return nil }
        var status = stat()
        if stat(folder, &status) == 0 {
            guard status.st_mode & S_IFMT != S_IFDIR else { return nil }
            self = .notAFolder(folder)
            return
        }
        switch errno {
        case ENOENT: self = .missing(folder)
        case ENOTDIR: self = .notAFolder(folder)
        default: return nil
        }
    }

    /// The folder, as the user typed it.
    var folder: String {
        switch self {
        case .missing(let folder), .notAFolder(let folder): folder
        }
    }

    /// What is wrong, as the end of a sentence: "the folder nofolder does not exist".
    var reason: String {
        switch self {
        case .missing(let folder): "the folder \(folder) does not exist"
        case .notAFolder(let folder): "\(folder) is not a folder"
        }
    }
}
