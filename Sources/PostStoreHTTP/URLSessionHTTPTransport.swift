package import Foundation
package import HTTPTypes
import PostStore

#if canImport(FoundationNetworking)
import FoundationNetworking
import PostStoreEngines
#endif

/// The live ``HTTPTransport``: `URLSession` (FoundationNetworking on Linux), with caching and cookies off.
///
/// The session has no URL cache, so an `If-None-Match` that ``HTTPPostDataService`` sends reaches the server and a
/// `304 Not Modified` comes back as it is. Redirects are followed up to a limit, never from `https` to another
/// scheme; a body longer than the request's `maximumBodyBytes` is refused as soon as it is known to be (from its
/// `Content-Length`, else as it arrives). The request's timeout is kept exactly, for the whole answer:
/// FoundationNetworking on Linux rounds `URLRequest.timeoutInterval` down to whole seconds (0.3 s becomes almost
/// nothing), so the transport gives URLSession a whole-second bound above it and enforces the timeout itself.
///
/// Requests and responses are mapped to and from `URLRequest` and `HTTPURLResponse` here rather than with
/// swift-http-types' `HTTPTypesFoundation`: that module reads and writes field values as ISO Latin 1, which would
/// change a non-ASCII `ETag` between the answer that brought it and the `If-None-Match` that sends it back, and its
/// `URLSession` conveniences cannot refuse an oversized body or a redirect part-way (``URLSessionTaskRunner`` does).
///
/// For example:
///
/// ```swift
/// let transport = URLSessionHTTPTransport()
/// let (response, body) = try await transport.send(
///     HTTPRequest(url: URL(string: "https://example.com")!),
///     timeout: .seconds(30),
///     maximumBodyBytes: 1 << 20
/// )
/// ```
package final class URLSessionHTTPTransport: HTTPTransport {
    /// The default ``maximumRedirects``.
    package static let defaultMaximumRedirects = 5

    /// The most redirects one request follows; one more fails it with ``HTTPTransportError/Kind/redirectRefused``.
    package var maximumRedirects: Int { runner.maximumRedirects }

    private let session: URLSession
    private let runner: URLSessionTaskRunner

    /// Creates a transport with its own ephemeral session.
    ///
    /// - Parameter maximumRedirects: The most redirects one request follows.
    package init(maximumRedirects: Int = defaultMaximumRedirects) {
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

    package func send(
        _ request: HTTPRequest,
        timeout: Duration,
        maximumBodyBytes: Int,
        receiving: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void
    ) async throws -> (response: HTTPResponse, body: Data) {
        guard let url = request.url else {
            throw HTTPTransportError(.invalidRequest, "Cannot request \(request.path ?? "/"): it has no absolute URL.")
        }
        let urlRequest = Self.urlRequest(for: request, url: url, timeout: timeout)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withDeadline(timeout) { [runner, session, urlRequest] in
                try await runner.data(
                    for: urlRequest,
                    maximumBodyBytes: maximumBodyBytes,
                    in: session,
                    receiving: receiving
                )
            }
        } catch let error as URLError {
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error, url: url, timeout: timeout)
        } catch is DeadlineExceeded {
            throw HTTPTransportError(
                .timedOut,
                "No answer from \(url.absoluteString) within \(timeout.secondsDescription)."
            )
        }
        guard let response = response as? HTTPURLResponse, let head = Self.response(from: response) else {
            throw HTTPTransportError(.invalidRequest, "\(url.absoluteString) did not answer with HTTP.")
        }
        return (head, data)
    }

    /// The `URLRequest` for `request`: its method and header fields (values as the UTF-8 text they hold), with
    /// the cache ignored and URLSession's own timeout a whole second or more beyond `timeout`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - url: Its URL.
    ///   - timeout: How long the answer may take.
    /// - Returns: The request for URLSession.
    static func urlRequest(for request: HTTPRequest, url: URL, timeout: Duration) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = seconds(timeout).rounded(.up) + 1
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        return urlRequest
    }

    /// The response head of `response`: its status and header fields (names that are not valid HTTP field names
    /// are left out).
    ///
    /// - Parameter response: URLSession's answer.
    /// - Returns: The head, or `nil` for a status outside 0…999.
    static func response(from response: HTTPURLResponse) -> HTTPResponse? {
        guard (0...999).contains(response.statusCode) else { return nil }
        var fields = HTTPFields()
        for case let (name as String, value as String) in response.allHeaderFields {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: HTTPResponse.Status(code: response.statusCode), headerFields: fields)
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

    private static func transportError(_ error: URLError, url: URL, timeout: Duration) -> HTTPTransportError {
        let url = url.absoluteString
        switch error.code {
        case .timedOut:
            return HTTPTransportError(.timedOut, "No answer from \(url) within \(timeout.secondsDescription).")
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
