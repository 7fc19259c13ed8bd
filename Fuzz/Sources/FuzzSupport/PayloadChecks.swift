public import Foundation
public import PostStore

/// The contract of ``PostJSON/decode(_:maximumPostBytes:)`` that the fuzzers check on every input.
public enum PayloadChecks {
    /// Decodes a payload and checks the outcome: posts with unique ids, or `invalidData` with a one-line message.
    ///
    /// - Parameters:
    ///   - input: The payload.
    ///   - maximumPostBytes: The most bytes of JSON one post may take.
    /// - Returns: What `PostJSON.decode` returned or threw.
    public static func decode(
        _ input: Data,
        maximumPostBytes: Int = PayloadLimits.defaultMaximumPostBytes
    ) -> Result<[Post], PostStoreError> {
        let result = Result { () throws(PostStoreError) in
            try PostJSON.decode(input, maximumPostBytes: maximumPostBytes)
        }
        switch result {
        case .success(let posts):
            if Set(posts.map(\.id)).count != posts.count {
                fuzzFailure("decode returned \(posts.count) posts with a repeated id", input: input)
            }
        case .failure(let error):
            checkDecodeError(error, input: input, context: "decode")
        }
        return result
    }

    /// Checks an error of the decoder: code `invalidData`, a message on one line and not empty.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - input: The payload, for the report.
    ///   - context: Which call threw it, for the report.
    public static func checkDecodeError(_ error: PostStoreError, input: Data, context: String) {
        guard error.code == .invalidData else {
            fuzzFailure("\(context) threw code \(error.code), not invalidData: \(error)", input: input)
        }
        guard !error.message.isEmpty else {
            fuzzFailure("\(context) threw invalidData with an empty message", input: input)
        }
        guard isOneLine(error.message) else {
            fuzzFailure(
                "\(context) threw a message that is not one line: \(error.message.debugDescription)",
                input: input
            )
        }
    }

    /// Whether a message holds no line break nor other control character (a tab included): what a person's
    /// terminal or a log line shows as one line.
    ///
    /// - Parameter message: The message.
    /// - Returns: `false` when a scalar is a control character, a line separator or a paragraph separator.
    public static func isOneLine(_ message: String) -> Bool {
        !message.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }
}
