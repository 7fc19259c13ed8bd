import Foundation
import PostStore
import Testing

/// `--help` on the tool and each command, and `--version`.
@Suite struct HelpTests {
    @Test(arguments: ["sync", "query", "info", "migrate", "copy"])
    func everyCommandHasHelpWithExamples(command: String) async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run([command, "--help"])
        let viaHelp = try await sandbox.run(["help", command])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
        #expect(result.output.contains("USAGE: poststore \(command)"), "\(result)")
        #expect(result.output.contains("Examples:"), "\(result)")
        #expect(result.output.contains("poststore \(command) "), "\(result)")
        #expect(viaHelp.exitCode == 0, "\(viaHelp)")
        #expect(viaHelp.output == result.output)
    }

    @Test func syncsHelpNamesTheSizeLimitsDefaults() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["sync", "--help"])

        #expect(result.output.contains("binary units; default: 1M)"), "\(result)")
        #expect(result.output.contains("more than SIZE bytes (default: 1G)"), "\(result)")
    }

    @Test func theToolsHelpListsCommandsAndExitCodes() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["--help"])

        #expect(result.exitCode == 0, "\(result)")
        for command in ["sync", "query", "info", "migrate", "copy"] {
            #expect(result.output.contains("  \(command) "), "\(command) missing from \(result)")
        }
        #expect(result.output.contains("Exit codes: 0 ok, 64 usage"), "\(result)")
        #expect(result.output.contains("$XDG_DATA_HOME/poststore/posts.sqlite"), "\(result)")
    }

    @Test func versionPrintsAVersion() async throws {
        let sandbox = try Sandbox()

        let result = try await sandbox.run(["--version"])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardError.isEmpty)
        let version = result.output.trimmingCharacters(in: .newlines)
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(version)")
        #expect(result.outputLines.count == 1)
        // The one place the version is written (which scripts/ci/release-check.sh holds to CHANGELOG.md and the tag).
        #expect(version == PostStoreRelease.version)
    }
}
