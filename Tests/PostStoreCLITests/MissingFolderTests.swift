import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A store in a folder that does not exist: the message names the folder as the user typed it, and the advice to
/// create the store works when followed as written.
@Suite struct MissingFolderTests {
    /// Every command that reads a store says the folder is missing and how to make the store, in one line.
    @Test(arguments: [
        ["query", "--store", "nofolder/x.sqlite"], ["info", "--store", "nofolder/x.sqlite"],
        ["migrate", "--store", "nofolder/x.sqlite"], ["serve", "--store", "nofolder/x.sqlite", "--port", "0"],
        ["copy", "--from-store", "nofolder/x.sqlite", "--to-store", "copy.sqlite"],
    ])
    func readingAStoreInAMissingFolderSaysSoAndHowToMakeIt(arguments: [String]) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(arguments)

        #expect(result.exitCode == 66, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: There is no SQLite store at nofolder/x.sqlite: the folder nofolder does not exist. Run "
                    + "`mkdir -p nofolder && poststore sync --store sqlite:nofolder/x.sqlite` first."
            ],
            "\(result)"
        )
        #expect(try sandbox.directory.entries() == ["home"], "a read created something")
    }

    /// The advice, run by a shell exactly as printed (the folder's name needs quoting here), makes a store the
    /// command then reads.
    @Test(arguments: ["my posts/x.sqlite", "json:a/b/x.json", "sqlite:it's/x.db"])
    func theAdviceWorksWhenFollowed(store: String) async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")
        let before = try await sandbox.run(["query", "--store", store, "--count"])
        #expect(before.exitCode == 66, "\(before)")
        let advice = try #require(before.errorOutput.firstMatch(of: /Run `([^`]*)` first\./)?.1, "\(before)")
        #expect(advice.hasPrefix("mkdir -p "), "\(before)")

        // `poststore sync` without --from reads $POSTSTORE_SOURCE: a file here, not the network.
        let binaryFolder = try PostStoreExecutable.url().deletingLastPathComponent().path
        var environment = sandbox.environment
        environment["PATH"] = binaryFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["POSTSTORE_SOURCE"] = "posts.json"
        let (command, shellEnvironment, folder) = (String(advice), environment, sandbox.directory.path)
        let shell = try await onOwnThread {
            try ChildProcess.run("/bin/sh", ["-c", command], environment: shellEnvironment, in: folder)
        }
        #expect(shell.termination == .exited(0), "\(advice): \(String(decoding: shell.standardError, as: UTF8.self))")

        let after = try await sandbox.run(["query", "--store", store, "--count"])
        #expect(after.exitCode == 0 && after.output == "3\n", "\(after)")
    }

    /// Writing into a missing folder fails before anything is read, naming the folder as typed and how to make it.
    @Test(arguments: [
        (["sync", "--from", "posts.json", "--store", "nofolder/x.sqlite"], "nofolder/x.sqlite", "nofolder"),
        (["sync", "--from", "posts.json", "--store", "json:a/b/x.json"], "a/b/x.json", "a/b"),
        (
            ["copy", "--from-store", "posts.sqlite", "--to-store", "json:nofolder/y.json"], "nofolder/y.json",
            "nofolder"
        ),
        (["sync", "--from", "posts.json", "--store", "./new dir/x.sqlite"], "./new dir/x.sqlite", "./new dir"),
    ])
    func writingIntoAMissingFolderNamesIt(arguments: [String], path: String, folder: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.seed(SamplePosts.make(count: 3), into: "posts.sqlite")
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")
        let before = try sandbox.snapshot()

        let result = try await sandbox.run(arguments)

        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: The folder \(folder) for the store \(path) does not exist; create it first "
                    + "(mkdir -p \(folder.contains(" ") ? "'\(folder)'" : folder))."
            ],
            "\(result)"
        )
        #expect(try sandbox.snapshot() == before)
    }

    /// A "folder" that is a file: no advice to create anything, only what is wrong.
    @Test func aStoreUnderAFileIsRefusedForWhatItIs() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(SamplePosts.make(count: 3), to: "posts.json")

        let query = try await sandbox.run(["query", "--store", "posts.json/x.sqlite"])
        let sync = try await sandbox.run(["sync", "--from", "posts.json", "--store", "posts.json/x.sqlite"])

        #expect(query.exitCode == 66, "\(query)")
        #expect(
            query.errorLines == ["poststore: There is no store at posts.json/x.sqlite: posts.json is not a folder."],
            "\(query)"
        )
        #expect(sync.exitCode == 74, "\(sync)")
        #expect(
            sync.errorLines == [
                "poststore: The store posts.json/x.sqlite cannot be created: posts.json is not a folder."
            ],
            "\(sync)"
        )
    }
}
