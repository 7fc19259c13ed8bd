import Logging
import PostStore
import PostStoreTesting
import Synchronization
import Testing

@testable import PostStoreCLI

/// The progress display against a fake terminal and a test clock: what a user sees, how often it is redrawn, and
/// that it always fits.
@Suite struct ProgressDisplayTests {
    /// A terminal `width` columns wide, a test clock, and a display drawing on the one, timed by the other.
    private static func screen(width: Int) -> (FakeTerminal, TestClock, ProgressDisplay) {
        let terminal = FakeTerminal(width: width)
        let clock = TestClock()
        return (terminal, clock, display(terminal, clock))
    }

    private static func display(_ terminal: FakeTerminal?, _ clock: TestClock) -> ProgressDisplay {
        ProgressDisplay(terminal: terminal, clock: clock) { phase in
            phase == .reading ? "Reading posts.json" : ProgressDisplay.defaultLabel(phase)
        }
    }

    @Test func eachFinishedPhaseLeavesALineWithItsCountsAndTimeThenTheLiveLineFollows() {
        let (terminal, clock, display) = Self.screen(width: 120)
        let size = 350 * 1024 * 1024
        display.show(WorkProgress(phase: .reading, completed: 0, bytes: 0, totalBytes: size))
        clock.advance(by: .seconds(2))
        display.show(WorkProgress(phase: .reading, completed: 500_000, bytes: size / 2, totalBytes: size))
        #expect(
            terminal.lines == [
                "Reading posts.json  [############------------]  500,000 posts  50%  175.0 MiB/350.0 MiB  "
                    + "250.0k posts/s  2s left"
            ]
        )
        clock.advance(by: .seconds(2))
        display.show(WorkProgress(phase: .reading, completed: 1_000_000, bytes: size, totalBytes: size).finished)
        display.show(WorkProgress(phase: .indexing, completed: 0, total: 1_000_000))
        clock.advance(by: .seconds(4))
        display.show(WorkProgress(phase: .indexing, completed: 250_000, total: 1_000_000))
        #expect(
            terminal.lines == [
                "Reading posts.json: 1,000,000 posts, 350.0 MiB in 4.0 s",
                "Building the search index  [######------------------]  250,000/1,000,000 rows  25%  62.5k rows/s  "
                    + "12s left",
            ]
        )
        clock.advance(by: .seconds(12))
        display.show(WorkProgress(phase: .indexing, completed: 1_000_000, total: 1_000_000, isFinished: true))
        #expect(
            terminal.lines == [
                "Reading posts.json: 1,000,000 posts, 350.0 MiB in 4.0 s",
                "Building the search index: 1,000,000 rows in 16.0 s",
                "",
            ]
        )
    }

    @Test func aPhaseIsRedrawnAtMostTenTimesASecondButItsEndIsAlwaysDrawn() {
        let (terminal, clock, display) = Self.screen(width: 100)
        // 1,000 updates over one second, one a millisecond.
        for completed in 0..<1000 {
            display.show(WorkProgress(phase: .writing, completed: completed, total: 1000))
            clock.advance(by: .milliseconds(1))
        }
        #expect(terminal.writes.count == 10)
        display.show(WorkProgress(phase: .writing, completed: 1000, total: 1000, isFinished: true))
        #expect(terminal.writes.count == 11)
        #expect(terminal.lines == ["Writing posts: 1,000 posts in 1.0 s", ""])
    }

    @Test(arguments: [1, 2, 5, 10, 20, 30, 40, 60, 80, 100, 120, 200])
    func everyLineFitsTheTerminalWithoutWrapping(width: Int) {
        let terminal = FakeTerminal(width: width)
        let clock = TestClock()
        let display = ProgressDisplay(terminal: terminal, clock: clock) { phase in
            "Reading /a/rather/long/path/to/a/folder/of/posts/\(phase)/比較的長いファイル名.json"
        }
        for phase in WorkProgress.Phase.allCases {
            for step in 0...10 {
                clock.advance(by: .milliseconds(700))
                display.show(
                    WorkProgress(
                        phase: phase,
                        completed: step * 123_457,
                        total: 1_234_570,
                        pages: step,
                        bytes: step * 98_765_432,
                        totalBytes: 987_654_320,
                        isFinished: step == 10
                    )
                )
            }
        }
        display.show(.retrying(attempt: 2, delay: .seconds(3), reason: "HTTP 503 Service Unavailable from the server"))
        #expect(terminal.overflowed.isEmpty)
        #expect(terminal.lines.count == WorkProgress.Phase.allCases.count + 1)
    }

    @Test func aResizedTerminalGetsLinesOfItsNewWidth() {
        let (terminal, clock, display) = Self.screen(width: 120)
        display.show(WorkProgress(phase: .writing, completed: 10, total: 100))
        let wide = terminal.lines.last ?? ""
        terminal.resize(to: 40)
        clock.advance(by: .seconds(1))
        display.show(WorkProgress(phase: .writing, completed: 20, total: 100))
        let narrow = terminal.lines.last ?? ""
        #expect(ProgressLine.columns(wide) > 40)
        #expect(ProgressLine.columns(narrow) <= 39 && narrow.hasPrefix("Writing posts"))
        #expect(terminal.overflowed.isEmpty)
    }

    @Test func narrowingTheWindowMidPhaseLeavesNoPieceOfTheOldLine() {
        let (terminal, clock, display) = Self.screen(width: 120)
        display.show(WorkProgress(phase: .reading, completed: 10, bytes: 100, totalBytes: 100).finished)
        clock.advance(by: .seconds(2))
        display.show(WorkProgress(phase: .indexing, completed: 250_000, total: 1_000_000))
        #expect(ProgressLine.columns(terminal.lines[1]) > 50)
        terminal.resize(to: 50)
        #expect(terminal.lines.count == 3, "the live line rewrapped onto two rows")
        clock.advance(by: .seconds(1))
        display.tick()
        #expect(terminal.lines.count == 2)
        #expect(terminal.lines.first == "Reading posts.json: 10 posts, 100 B in 0.0 s")
        #expect(terminal.lines.last == "Building the search index  25%  3s left")
        terminal.resize(to: 30)
        display.clear()
        #expect(terminal.lines.dropLast().joined() == "Reading posts.json: 10 posts, 100 B in 0.0 s")
        #expect(terminal.lines.last == "")
    }

    @Test func theBarStaysPutAndTheNumbersStayAsTheWidthShrinks() {
        let clock = TestClock()
        let terminal = FakeTerminal(width: 80)
        let display = Self.display(terminal, clock)
        var bars: Set<Int> = []
        let updates: [(Int, Duration)] = [
            (0, .zero), (1_000, .milliseconds(300)), (95_000, .seconds(2)), (999_999, .seconds(30)),
        ]
        for (completed, wait) in updates {
            clock.advance(by: wait)
            display.show(WorkProgress(phase: .indexing, completed: completed, total: 1_000_000))
            let line = terminal.lines.last ?? ""
            // At 0% the line has no bar yet.
            #expect(line.contains("[") == (completed > 0), "\(line)")
            if let bar = line.firstIndex(of: "[") { bars.insert(line.distance(from: line.startIndex, to: bar)) }
        }
        #expect(bars.count == 1, "the bar moved: \(bars)")
        // Narrower, the label is cut before any number goes; a finished line keeps its time.
        let line = ProgressLine(
            label: "Building the search index",
            progress: WorkProgress(phase: .indexing, completed: 250_000, total: 1_000_000),
            elapsed: .seconds(4)
        )
        #expect(line.text(width: 40) == "Building the searc...  25%  12s left")
        #expect(line.text(width: 20) == "Building th...  25%")
        let finished = ProgressLine(
            label: line.label,
            progress: WorkProgress(phase: .indexing, completed: 1_000_000, total: 1_000_000, isFinished: true),
            elapsed: .seconds(16)
        )
        #expect(finished.text(width: 40) == "Building th...: 1,000,000 rows in 16.0 s")
        #expect(finished.text(width: 29) == "Building the searc...: 16.0 s")
    }

    @Test func aWholeListDownloadShowsItsBytesAndTheirRateThenARetryStartsItsTimeAfresh() {
        let (terminal, clock, display) = Self.screen(width: 120)
        let size = 80 * 1024 * 1024
        let downloaded = { (bytes: Int) in
            WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: bytes, totalBytes: size)
        }
        display.show(downloaded(0))
        clock.advance(by: .seconds(5))
        display.show(downloaded(size / 2))
        // No "0 posts": the posts are counted once the answer is in.
        #expect(
            terminal.lines == ["Downloading  [############------------]  50%  40.0 MiB/80.0 MiB  8.0 MiB/s  5s left"]
        )
        display.show(.retrying(attempt: 1, delay: .seconds(1), reason: "the connection was closed"))
        clock.advance(by: .seconds(1))
        display.show(downloaded(size / 8))
        clock.advance(by: .seconds(1))
        display.show(downloaded(size / 4))
        // The time left is the new attempt's: a quarter in one second.
        #expect(
            terminal.lines == ["Downloading  [######------------------]  25%  20.0 MiB/80.0 MiB  20.0 MiB/s  3s left"]
        )
        // Without a total (a compressed answer): the bytes and their rate.
        let compressed = ProgressLine(
            label: "Downloading",
            progress: WorkProgress(phase: .downloading, completed: 0, pages: 0, bytes: size / 2),
            elapsed: .seconds(5)
        )
        #expect(compressed.text(width: 118) == "Downloading  40.0 MiB  8.0 MiB/s  5s")
    }

    @Test func theWholeLabelShowsBeforeTheBytesAndTheRateAndTheBarGoesLast() {
        let line = ProgressLine(
            label: "Reading /tmp/r-posts.json",
            progress: WorkProgress(phase: .reading, completed: 299_008, bytes: 89_234_000, totalBytes: 89_550_000),
            elapsed: .seconds(2)
        )
        let texts = [200, 118, 78, 68, 40].map { line.text(width: $0) }
        #expect(
            texts == [
                "Reading /tmp/r-posts.json  [#######################-]  299,008 posts  99%  85.1 MiB/85.4 MiB  "
                    + "149.5k posts/s  1s left",
                "Reading /tmp/r-posts.json  [###############-]  299,008 posts  99%  149.5k posts/s  1s left",
                "Reading /tmp/r-posts.json  [#########-]  299,008 posts  99%  1s left",
                "Reading /tmp/r-po...  [#########-]  299,008 posts  99%  1s left",
                "Reading /tmp/r-pos...  99%  1s left",
            ]
        )
    }

    @Test func aRetryLineLeavesRoomForAnEchoedInterrupt() {
        let (terminal, _, display) = Self.screen(width: 120)
        display.show(.working(WorkProgress(phase: .downloading, completed: 0, pages: 0)))
        display.show(.retrying(attempt: 1, delay: .seconds(2), reason: String(repeating: "HTTP 503 ", count: 20)))
        #expect(terminal.lines.map(ProgressLine.columns) == [118])
    }

    @Test func aPhaseWhoseNumbersStandStillShowsItsTimeGoOn() {
        let (terminal, clock, display) = Self.screen(width: 100)
        display.show(WorkProgress(phase: .writing, completed: 0, total: 300_000))
        clock.advance(by: .seconds(6))
        display.tick()
        // No bar and no 0%: nothing measured it, and the time so far shows the work goes on.
        #expect(terminal.lines == ["Writing posts  0/300,000 posts  6s"])
    }

    @Test func aLogLineIsWrittenAboveTheLiveLineWhichIsDrawnAgain() {
        let terminal = FakeTerminal(width: 80)
        let display = Self.display(terminal, TestClock())
        display.show(WorkProgress(phase: .downloading, completed: 5, pages: 1))
        var logger = Logger(label: "test") { _ in
            ProgressLogHandler(FakeTerminalLogHandler(terminal: terminal), display: display)
        }
        logger.logLevel = .debug
        logger.warning("Retrying")
        #expect(terminal.lines == ["warning: Retrying", "Downloading  5 posts"])
        // Without a terminal the log line is written all the same.
        let plain = FakeTerminal(width: 80)
        Logger(label: "test") { _ in
            ProgressLogHandler(FakeTerminalLogHandler(terminal: plain), display: Self.display(nil, TestClock()))
        }.error("Failed")
        #expect(plain.lines == ["error: Failed", ""])
    }

    @Test func clearingErasesTheLiveLineSoAnErrorStartsAClean() {
        let terminal = FakeTerminal(width: 80)
        let clock = TestClock()
        let shown = LineShownLog()
        let display = ProgressDisplay(terminal: terminal, clock: clock, lineShown: shown.record)
        display.show(WorkProgress(phase: .reading, completed: 10))
        #expect(terminal.lines == ["Reading  10 posts"])
        display.clear()
        #expect(terminal.lines == [""])
        #expect(shown.values == [true, false])
        // Nothing on screen: clearing again writes nothing.
        let writes = terminal.writes.count
        display.clear()
        #expect(terminal.writes.count == writes)
    }

    @Test func progressIsDrawnOnATerminalOfAKnownTypeUnlessQuietAndTheFlagsDecideWhenGiven() throws {
        let unset = try ProgressOptions.parse([])
        // The tests' standard error is not a terminal.
        #expect(!unset.isEnabled(quiet: false, environment: ["TERM": "xterm-256color"]))
        #expect(unset.isEnabled(quiet: false, environment: ["TERM": "xterm-256color"], standardErrorIsTerminal: true))
        // A terminal of no known type, or a dumb one, cannot redraw a line; quiet asks for nothing.
        for environment in [["TERM": "dumb"], ["TERM": ""], [:]] {
            #expect(!unset.isEnabled(quiet: false, environment: environment, standardErrorIsTerminal: true))
        }
        #expect(!unset.isEnabled(quiet: true, environment: ["TERM": "xterm"], standardErrorIsTerminal: true))
        #expect(try ProgressOptions.parse(["--progress"]).isEnabled(quiet: true, environment: ["TERM": "dumb"]))
        #expect(!(try ProgressOptions.parse(["--no-progress"]).isEnabled(quiet: false, environment: [:])))
        #expect(!unset.display().isEnabled)
    }

    @Test func aRetryIsShownAtOnceWithItsReasonsControlsMadeVisibleUntilTheNextUpdate() {
        let (terminal, clock, display) = Self.screen(width: 100)
        display.show(.working(WorkProgress(phase: .downloading, completed: 0, pages: 0)))
        display.show(.retrying(attempt: 1, delay: .milliseconds(1500), reason: "HTTP 503\u{1B}[31m"))
        #expect(terminal.lines == [#"Retrying in 1.5 s (attempt 1 failed: HTTP 503\u{1B}[31m)..."#])
        clock.advance(by: .seconds(2))
        display.show(.working(WorkProgress(phase: .downloading, completed: 10, pages: 1)))
        #expect(terminal.lines == ["Downloading  10 posts  5 posts/s  2s"])
    }

    @Test func theTickerShowsAnUpdateThatCameTooSoonAndMovesTheTimeOn() {
        let (terminal, clock, display) = Self.screen(width: 100)
        display.show(WorkProgress(phase: .writing, completed: 0, total: 100))
        clock.advance(by: .milliseconds(10))
        display.show(WorkProgress(phase: .writing, completed: 50, total: 100))
        #expect(terminal.lines == ["Writing posts  0/100 posts"])
        clock.advance(by: .milliseconds(50))
        display.tick()
        #expect(terminal.writes.count == 1, "not yet: the interval has not passed")
        clock.advance(by: .seconds(2))
        display.tick()
        #expect(
            terminal.lines == ["Writing posts  [############------------]  50/100 posts  50%  24 posts/s  3s left"]
        )
    }
}

/// A log handler that writes "level: message" lines to a fake terminal.
private struct FakeTerminalLogHandler: LogHandler {
    let terminal: FakeTerminal
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        terminal.write("\(event.level): \(event.message)\n")
    }
}

/// What a display told its `lineShown` callback, in order.
private final class LineShownLog: Sendable {
    private let storage = Mutex<[Bool]>([])
    var values: [Bool] { storage.withLock { $0 } }
    @Sendable func record(_ shown: Bool) { storage.withLock { $0.append(shown) } }
}
