import HTTPTypes

extension HTTPResponse.Status {
    /// The code and its reason, for example `404 Not Found`: the reason the server sent, else swift-http-types'
    /// for the statuses a data service is likely to meet, else the code alone.
    var codeAndReason: String {
        let reason = reasonPhrase.isEmpty ? Self.knownReasons[code] ?? "" : reasonPhrase
        return reason.isEmpty ? "\(code)" : "\(code) \(reason)"
    }

    private static let knownReasons: [Int: String] = Dictionary(
        uniqueKeysWithValues: [
            HTTPResponse.Status.ok, .movedPermanently, .found, .notModified, .badRequest, .unauthorized, .forbidden,
            .notFound, .requestTimeout, .gone, .tooManyRequests, .internalServerError, .badGateway,
            .serviceUnavailable, .gatewayTimeout,
        ].map { ($0.code, $0.reasonPhrase) }
    )
}
