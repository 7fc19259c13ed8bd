import Foundation
import PostStore
import PostStoreTestSupport
import PostStoreTesting
import Testing

/// A first sync into a missing store races another sync that creates and fills the store meanwhile. Whatever becomes
/// of the first one — bad data, a refused prune, Ctrl-C, SIGKILL, or success — the rival's posts are all still
/// there: a first sync stages its store and never deletes what is at the store's path.
///
/// The slow sync reads standard input, which the test holds back until the rival has committed, so the two overlap
/// every time, whatever the machine's speed.
@Suite struct FirstSyncRaceTests {
    /// How the slow first sync ends.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        /// Its input turns out bad at the last post: exit 65.
        case badData
        /// It prunes, and would delete every post of the rival's store: refused, exit 1.
        case refusedPrune
        /// Ctrl-C while it waits for its input.
        case interrupted
        /// SIGKILL while it waits for its input.
        case killed
        /// It succeeds: its posts are synced into the rival's store as any later sync's would be.
        case succeeds

        var testDescription: String { rawValue }
    }

    private static let rounds = 3
    private static let rival = SamplePosts.make(count: 100)
    private static let late = SamplePosts.make(count: 10, firstId: 1_000)

    @Test(arguments: ["posts.sqlite", "json:posts.json"], Ending.allCases)
    func theRivalsStoreOutlivesTheFirstSync(store: String, ending: Ending) async throws {
        for round in 1...Self.rounds {
            let sandbox = try Sandbox()
            try sandbox.write(Self.rival, to: "rival.json")
            let control = ChildControl()
            async let slow = sandbox.run(
                ["sync", "--from", "-", "--store", store] + (ending == .refusedPrune ? ["--prune"] : []),
                input: Self.input(for: ending),
                control: control
            )
            // The slow sync has begun building its new store, and waits for its input.
            try await Self.waitForStagingFolder(in: sandbox)
            let rival = try await sandbox.run(["sync", "--from", "rival.json", "--store", store])
            #expect(rival.exitCode == 0, "round \(round): \(rival)")
            switch ending {
            case .badData, .refusedPrune, .succeeds: control.releaseInput()
            case .interrupted: control.send(SIGINT)
            case .killed: control.send(SIGKILL)
            }
            let result = try await slow

            switch ending {
            case .badData: #expect(result.exitCode == 65, "round \(round): \(result)")
            case .refusedPrune:
                #expect(result.exitCode == 1, "round \(round): \(result)")
                #expect(result.errorOutput.contains("Prune refused"), "round \(round): \(result)")
            case .interrupted: #expect(result.killedBySignal && result.status == SIGINT, "round \(round): \(result)")
            case .killed: #expect(result.killedBySignal && result.status == SIGKILL, "round \(round): \(result)")
            case .succeeds: #expect(result.exitCode == 0, "round \(round): \(result)")
            }
            let expected = ending == .succeeds ? Self.rival + Self.late : Self.rival
            #expect(try await sandbox.posts(in: store) == expected, "round \(round): the rival's posts are gone")
            // Only a killed sync leaves its staging folder (the next sync of the store deletes it).
            let staging = try sandbox.directory.entries().filter { $0.hasPrefix(".posts.") && $0.contains(".new-") }
            #expect(staging.count == (ending == .killed ? 1 : 0), "round \(round): \(staging)")
        }
    }

    @Test(arguments: ["posts.sqlite", "json:posts.json"])
    func anInterruptedFirstSyncLeavesNoStore(store: String) async throws {
        let sandbox = try Sandbox()
        let control = ChildControl()
        async let slow = sandbox.run(
            ["sync", "--from", "-", "--store", store],
            input: SamplePosts.json(Self.late),
            control: control
        )
        try await Self.waitForStagingFolder(in: sandbox)
        control.send(SIGINT)
        let result = try await slow

        #expect(result.killedBySignal && result.status == SIGINT, "\(result)")
        #expect(try sandbox.directory.entries().filter { $0 != "home" } == [], "a first sync left files behind")
        let query = try await sandbox.run(["query", "--store", store])
        #expect(query.exitCode == 66, "\(query)")
    }

    @Test func aKilledFirstSyncsFolderIsDeletedByALaterSync() async throws {
        let sandbox = try Sandbox()
        let control = ChildControl()
        async let slow = sandbox.run(
            ["sync", "--from", "-", "--store", "posts.sqlite"],
            input: SamplePosts.json(Self.late),
            control: control
        )
        let folder = try await Self.waitForStagingFolder(in: sandbox)
        control.send(SIGKILL)
        _ = try await slow
        #expect(sandbox.exists(folder))
        // Abandoned folders are deleted once their lock file is ten seconds old (a younger one may be a builder's
        // that has not locked it yet): age it rather than wait.
        let old = Date(timeIntervalSinceNow: -60)
        try FileManager.default.setAttributes(
            [.modificationDate: old],
            ofItemAtPath: sandbox.path(folder + "/building.lock")
        )

        try sandbox.write(Self.rival, to: "rival.json")
        let later = try await sandbox.run(["sync", "--from", "rival.json", "--store", "posts.sqlite"])

        #expect(later.exitCode == 0, "\(later)")
        #expect(!sandbox.exists(folder), "the abandoned staging folder is still there")
        #expect(try await sandbox.posts(in: "posts.sqlite") == Self.rival)
    }

    @Test(arguments: ["posts.sqlite", "json:posts.json"])
    func aFirstSyncThroughALinkBuildsBesideItsTargetAndOnce(store: String) async throws {
        let sandbox = try Sandbox()
        let target = store.hasPrefix("json:") ? "target.json" : "target.sqlite"
        let link = store.hasPrefix("json:") ? "posts.json" : "posts.sqlite"
        try FileManager.default.createSymbolicLink(atPath: sandbox.path(link), withDestinationPath: target)

        // Interrupted: nothing at the target either.
        let control = ChildControl()
        async let interrupted = sandbox.run(
            ["sync", "--from", "-", "--store", store],
            input: SamplePosts.json(Self.late),
            control: control
        )
        try await Self.waitForStagingFolder(in: sandbox, stem: "target")
        control.send(SIGINT)
        #expect(try await interrupted.status == SIGINT)
        #expect(try sandbox.directory.entries().filter { $0 != "home" } == [link])

        // Completed: one sync (not a second one after the link's name was found taken), the posts at the target.
        try sandbox.write(Self.rival, to: "rival.json")
        let synced = try await sandbox.run(["sync", "--from", "rival.json", "--store", store, "--format", "json"])
        #expect(synced.exitCode == 0, "\(synced)")
        #expect(String(decoding: synced.standardOutput, as: UTF8.self).contains(#""inserted":100"#), "\(synced)")
        #expect(try sandbox.directory.entries().filter { $0 != "home" } == [link, "rival.json", target].sorted())
        #expect(try await sandbox.posts(in: store) == Self.rival)
    }

    @Test func aStoreWithALongNameCanBeCreated() async throws {
        let sandbox = try Sandbox()
        // 247 bytes: too long for a staging folder's name to hold the store's whole name and a UUID.
        let name = String(repeating: "é", count: 120) + ".sqlite"
        try sandbox.write(Self.rival, to: "rival.json")

        let result = try await sandbox.run(["sync", "--from", "rival.json", "--store", name])

        #expect(result.exitCode == 0, "\(result)")
        #expect(try await sandbox.posts(in: name) == Self.rival)
    }

    /// What the slow sync reads: for bad data, the late posts and then one whose `userId` is a string.
    private static func input(for ending: Ending) -> Data {
        guard ending == .badData else { return SamplePosts.json(late) }
        var text = String(decoding: SamplePosts.json(late), as: UTF8.self)
        text.removeLast(text.hasSuffix("\n") ? 2 : 1)
        return Data((text + #", {"userId": "x", "id": 2000, "title": "", "body": ""}]"#).utf8)
    }

    /// Waits until a sync has made its staging folder in the sandbox and begun the store in it (by then its
    /// interrupt handler knows the folder), and returns the folder's name.
    ///
    /// - Parameter stem: The store file's name up to its extension.
    @discardableResult
    private static func waitForStagingFolder(in sandbox: Sandbox, stem: String = "posts") async throws -> String {
        // A ceiling for a sync that never starts, not a wait that passes: in a plain run the folder is there
        // within seconds (a sanitizer's slowdown is not measured).
        let deadline = ContinuousClock.now + hangLimit
        while ContinuousClock.now < deadline {
            for folder in try sandbox.directory.entries()
            where folder.hasPrefix(".\(stem).") && folder.contains(".new-") {
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder))) ?? []
                if entries.contains(where: { $0.hasPrefix(stem + ".") && !$0.hasSuffix(".lock") }) { return folder }
            }
            // A poll: the child says nothing before it has read its input, which the test holds back, and a
            // watch of the folders would need inotify here and kqueue on macOS.
            try await Task.sleep(for: .milliseconds(10))
        }
        throw PostStoreExecutable.Failure(description: "no sync made a staging folder in \(sandbox)")
    }
}
