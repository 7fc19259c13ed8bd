import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting

/// A temporary folder to run `poststore` in, with an environment that keeps the user's real data out of reach.
///
/// The process starts in the folder (so relative paths land there) with an environment of only `PATH`, `HOME` and
/// `XDG_DATA_HOME` (and the sanitizers' options, when set), the last two pointing at subfolders: `home` (created) and `xdg-data` (not created). For example:
///
/// ```swift
/// let sandbox = try Sandbox()
/// try sandbox.write(SamplePosts.json(SamplePosts.make(count: 3)), to: "posts.json")
/// let result = try await sandbox.run(["sync", "--from", "posts.json", "--store", "posts.sqlite"])
/// ```
struct Sandbox: CustomStringConvertible {
    /// The folder; deleted when the last copy of the sandbox goes.
    let directory: TemporaryDirectory

    /// The environment every run starts from.
    let environment: [String: String]

    init() throws {
        directory = try TemporaryDirectory()
        let home = directory.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home,
            "XDG_DATA_HOME": directory.file("xdg-data"),
        ]
        // Under scripts/reliability/asan.sh or tsan.sh the binary is instrumented too and must get the same options.
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS"] {
            environment[name] = ProcessInfo.processInfo.environment[name]
        }
        self.environment = environment
    }

    /// The folder's path, as failed expectations show the sandbox.
    var description: String { directory.path }

    /// The absolute path of `name`, a path relative to the folder.
    func path(_ name: String) -> String { directory.file(name) }

    /// Writes `data` to `name`, replacing what was there.
    func write(_ data: Data, to name: String) throws {
        try data.write(to: URL(fileURLWithPath: path(name)))
    }

    /// Writes `posts` to `name` as a JSON array, the way JSONPlaceholder serves them.
    func write(_ posts: [Post], to name: String) throws {
        try write(SamplePosts.json(posts), to: name)
    }

    /// The bytes of `name`, or `nil` when there is no such file.
    func contents(of name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }

    /// Whether `name` exists.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path(name))
    }

    /// Every file in the folder and its subfolders by relative path, with its bytes.
    ///
    /// A JSON store's `.lock` file is left out: it holds no data, and taking the lock creates it.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path(name), isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.hasSuffix(".lock")
            else { continue }
            files[name] = contents(of: name)
        }
        return files
    }

    /// Runs `poststore` in the folder.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - changes: Variables to set (a value) or remove (`nil`) in the sandbox's environment.
    ///   - input: Bytes for standard input; `nil` for `/dev/null`.
    ///   - interrupt: A signal to send after a delay.
    ///   - fileSizeLimit: The most KiB the process may write to one file, to play a full disk.
    ///   - control: Holds `input` back until the test releases it, and signals the process when the test chooses.
    ///     Such a process runs as long as the test's own steps take, so it is killed after five minutes rather than
    ///     one: under the thread sanitizer a `serve` child's start and the requests sent to it took over a minute.
    /// - Returns: How the run ended.
    func run(
        _ arguments: [String],
        environment changes: [String: String?] = [:],
        input: Data? = nil,
        interrupt: (after: Duration, signal: Int32)? = nil,
        fileSizeLimit: Int? = nil,
        control: ChildControl? = nil
    ) async throws -> CommandResult {
        var environment = environment
        for (name, value) in changes { environment[name] = value }
        return try await PostStoreExecutable.run(
            arguments,
            environment: environment,
            in: directory.path,
            standardInput: input,
            // A minute: a hung child's ceiling (a plain run's children end within seconds); five: see `control`.
            timeout: control == nil ? .seconds(60) : .seconds(300),
            interrupt: interrupt,
            fileSizeLimit: fileSizeLimit,
            control: control
        )
    }

    /// Syncs `posts` into `store` from a file named `seed.json`, and checks that it worked.
    ///
    /// - Returns: The sync's result.
    /// - Throws: ``PostStoreExecutable/Failure`` when the sync does not exit 0.
    @discardableResult
    func seed(_ posts: [Post], into store: String) async throws -> CommandResult {
        try write(posts, to: "seed.json")
        let result = try await run(["sync", "--from", "seed.json", "--store", store])
        guard result.exitCode == 0 else {
            throw PostStoreExecutable.Failure(description: "Seeding \(store) failed: \(result)")
        }
        return result
    }

    /// The posts `query --format json` prints for `store`, decoded.
    func posts(in store: String, _ arguments: [String] = []) async throws -> [Post] {
        let result = try await run(["query", "--store", store, "--format", "json"] + arguments)
        guard result.exitCode == 0 else {
            throw PostStoreExecutable.Failure(description: "Querying \(store) failed: \(result)")
        }
        return try JSONDecoder().decode([Post].self, from: result.standardOutput)
    }
}
