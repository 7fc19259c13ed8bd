import Foundation
import PostStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live ``HTTPClient``: `URLSession` (FoundationNetworking on Linux), with caching and cookies off.
///
/// The session has no URL cache, so an `If-None-Match` that ``HTTPPostDataService`` sends reaches the server and a
/// `304 Not Modified` comes back as it is. Redirects are followed up to a limit, never from `https` to another
/// scheme; a body longer than the request's ``HTTPRequest/maximumBodyBytes`` is refused as soon as it is known to be
/// (from its `Content-Length`, else as it arrives). The request's timeout is kept exactly, for the
/// whole answer: FoundationNetworking on Linux rounds `URLRequest.timeoutInterval` down to whole seconds (0.3 s
/// becomes almost nothing), so the client gives URLSession a whole-second bound above it and enforces the
/// timeout itself.
///
/// For example:
///
/// ```swift
/// let client = URLSessionHTTPClient()
/// let response = try await client.send(HTTPRequest(url: URL(string: "https://example.com")!))
/// ```
public final class URLSessionHTTPClient: HTTPClient {
    /// The default ``maximumRedirects``.
    public static let defaultMaximumRedirects = 5

    /// The most redirects one request follows; one more fails it with ``HTTPTransportError/Kind/redirectRefused``.
    public var maximumRedirects: Int { runner.maximumRedirects }

    private let session: URLSession
    private let runner: URLSessionTaskRunner

    /// Creates a client with its own ephemeral session.
    ///
    /// - Parameter maximumRedirects: The most redirects one request follows.
    public init(maximumRedirects: Int = defaultMaximumRedirects) {
        runner = URLSessionTaskRunner(maximumRedirects: max(maximumRedirects, 0))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: runner, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = Self.seconds(request.timeout).rounded(.up) + 1
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withDeadline(request.timeout) { [runner, session, urlRequest] in
                try await runner.data(for: urlRequest, maximumBodyBytes: request.maximumBodyBytes, in: session)
            }
        } catch let error as URLError {
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error, request)
        } catch is DeadlineExceeded {
            throw HTTPTransportError(
                .timedOut,
                "No answer from \(request.url.absoluteString) within \(request.timeout.secondsDescription)."
            )
        }
        guard let response = response as? HTTPURLResponse else {
            throw HTTPTransportError(.invalidRequest, "\(request.url.absoluteString) did not answer with HTTP.")
        }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            headers[name.lowercased()] = value
        }
        return HTTPResponse(statusCode: response.statusCode, headers: headers, body: data)
    }

    private struct DeadlineExceeded: Error {}

    /// Runs `body`, cancelling it and throwing ``DeadlineExceeded`` when it takes longer than `timeout`.
    private func withDeadline<Result: Sendable>(
        _ timeout: Duration,
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next()!, !Task.isCancelled else {
                try Task.checkCancellation()
                throw DeadlineExceeded()
            }
            return result
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(Double(seconds) + Double(attoseconds) / 1e18, 0.001)
    }

    private static func transportError(_ error: URLError, _ request: HTTPRequest) -> HTTPTransportError {
        let url = request.url.absoluteString
        switch error.code {
        case .timedOut:
            return HTTPTransportError(.timedOut, "No answer from \(url) within \(request.timeout.secondsDescription).")
        case .badURL, .unsupportedURL:
            return HTTPTransportError(.invalidRequest, "Cannot request \(url): the URL is not supported.")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            // Retrying does not fix a certificate.
            return HTTPTransportError(
                .invalidRequest,
                "Cannot get \(url): the secure connection failed (\(error.code.rawValue))."
            )
        case .cannotFindHost, .dnsLookupFailed:
            return HTTPTransportError(.connectionFailed, "Cannot get \(url): the host name was not found.")
        case .cannotConnectToHost:
            return HTTPTransportError(.connectionFailed, "Cannot get \(url): the server refused the connection.")
        case .notConnectedToInternet:
            return HTTPTransportError(
                .connectionFailed,
                "Cannot get \(url): this machine is not connected to a network."
            )
        default:
            // FoundationNetworking reports a connection closed mid-answer as `unknown` (-1), Darwin as -1005.
            return HTTPTransportError(
                .connectionFailed,
                "Cannot get \(url): the connection failed or closed before the answer was complete "
                    + "(URL error \(error.code.rawValue))."
            )
        }
    }
}
