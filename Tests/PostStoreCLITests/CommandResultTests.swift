import Foundation
import Testing

/// The test support's own reading of output: lines end at each LF byte, whatever `Character` a CR makes with it.
@Suite struct CommandResultTests {
    @Test func linesEndAtEveryLineFeedByte() {
        let result = CommandResult(
            arguments: [],
            status: 0,
            killedBySignal: false,
            timedOut: false,
            standardOutput: Data("a\r\nb\n\n\u{301}c\r\n".utf8),
            standardError: Data("one\r\ntwo".utf8)
        )

        #expect(result.outputLines.map { Array($0.utf8) } == ["a\r", "b", "", "\u{301}c\r"].map { Array($0.utf8) })
        #expect(result.errorLines.map { Array($0.utf8) } == ["one\r", "two"].map { Array($0.utf8) })
    }
}
