import ArgumentParser
import Foundation
import Testing

@testable import PostStoreCLI

/// A command line whose command is mistyped, or whose options come before the command: one line that says so and
/// what was meant, exit 64, never argument-parser's complaint about whatever word it tripped over next.
@Suite struct MistypedCommandTests {
    /// Wherever the mistyped word is, and whatever follows it, the line names the word and the nearest command.
    @Test(arguments: [
        ["qeury", "--store", "x"], ["qeury"], ["--verbose", "qeury"], ["--store", "x.sqlite", "qeury"],
        ["help", "qeury"],
        ["qeury", "--help"], ["qeury", "--verbose"],
    ])
    func aMistypedCommandSuggestsTheNearestOne(arguments: [String]) async throws {
        let result = try await Sandbox().run(arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: 'qeury' is not a command. Did you mean 'query'? (see 'poststore --help')"
            ],
            "\(result)"
        )
    }

    @Test func aWordFarFromEveryCommandListsThem() async throws {
        let result = try await Sandbox().run(["frobnicate", "--store", "x"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(
            result.errorLines == [
                "poststore: 'frobnicate' is not a command. The commands are sync, query, info, migrate, copy and serve "
                    + "(see 'poststore --help')"
            ],
            "\(result)"
        )
    }

    /// The root takes no options but help and version: options before the command are shown where they go.
    @Test(arguments: [
        (
            ["--store", "posts.sqlite", "query", "--count"],
            "poststore: Options go after the command: poststore query --store posts.sqlite --count "
                + "(see 'poststore query --help')"
        ),
        (
            ["--verbose", "sync", "--from", "my posts.json"],
            "poststore: Options go after the command: poststore sync --verbose --from 'my posts.json' "
                + "(see 'poststore sync --help')"
        ),
    ])
    func optionsBeforeTheCommandAreShownAfterIt(arguments: [String], line: String) async throws {
        let result = try await Sandbox().run(arguments)

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines == [line], "\(result)")
    }

    /// What the root does take still works: help (of a command too) and the version.
    @Test(arguments: [["help", "query"], ["help"], ["--help"], ["--version"], ["help", "help"]])
    func theToolsOwnOptionsStillWork(arguments: [String]) async throws {
        let result = try await Sandbox().run(arguments)

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }

    @Test(arguments: [
        ("qeury", ["query"]), ("Query", ["query"]), ("sycn", ["sync"]), ("syn", ["sync"]), ("migrat", ["migrate"]),
        ("sever", ["serve"]), ("inof", ["info"]), ("hlep", ["help"]), ("cp", []), ("frobnicate", []), ("x", []),
        ("", []),
    ])
    func onlyACloseCommandIsSuggested(word: String, suggested: [String]) {
        let names = ["sync", "query", "info", "migrate", "copy", "serve", "help"]
        #expect(NamedCommand.nearest(to: word, among: names) == suggested)
    }

    @Test(arguments: [
        ("qeury", "query", 1), ("query", "query", 0), ("QUERY", "query", 0), ("qery", "query", 1), ("abc", "", 3),
        ("ca", "abc", 3), ("kitten", "sitting", 3),
    ])
    func editDistanceCountsASwapAsOneEdit(left: String, right: String, distance: Int) {
        #expect(left.editDistance(to: right) == distance)
        #expect(right.editDistance(to: left) == distance)
    }
}
