import Foundation
import Testing

@testable import PostStoreServer

/// The access log's lines: one line each, whatever the client sent.
@Suite struct AccessLogTests {
    private let entry = AccessLog.Entry(
        time: Date(timeIntervalSince1970: 1_800_000_000.25),
        remote: "127.0.0.1",
        method: "GET",
        target: "/posts?q=a\"b\r\nX: y",
        status: 200,
        bytes: 512,
        duration: .microseconds(1234)
    )

    @Test func textIsOneLineWithTheClientsControlsEscaped() {
        #expect(
            AccessLog(format: .text).line(entry)
                == #"127.0.0.1 "GET /posts?q=a%22b%0D%0AX: y" 200 512 1.2ms"#
        )
    }

    @Test func jsonIsOneObjectPerLine() throws {
        let line = AccessLog(format: .json).line(entry)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["target"] as? String == entry.target && object["status"] as? Int == 200)
        #expect(object["bytes"] as? Int == 512 && object["milliseconds"] as? Double == 1.2)
        #expect(object["time"] as? String == "2027-01-15T08:00:00.250Z")
    }
}
