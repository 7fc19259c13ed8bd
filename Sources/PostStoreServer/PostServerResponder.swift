import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PostStoreNIO
import Synchronization

/// Carries ``PostAPI`` over Hummingbird: collects the body within its limit, bounds the store's time, adds CORS and
/// gzip, answers `HEAD` without a body, and logs each request.
struct PostServerResponder: HTTPResponder {
    typealias Context = PostServerRequestContext

    let api: PostAPI
    let configuration: PostServerConfiguration
    let accessLog: AccessLog?
    /// `http://HOST:PORT` of the listening socket, for a request without a `Host` header.
    let defaultOrigin: String

    /// Bodies shorter than this are sent as they are: gzip would save little and cost a deflate.
    static let compressionThreshold = 1024

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let authority = request.head.authority
        let origin = authority.map { "http://\($0)" } ?? defaultOrigin
        let hasBody = request.headers[.contentLength].map { $0 != "0" } ?? (request.headers[.transferEncoding] != nil)
        let bodyReader = RequestBodyReader(request.body, isEmpty: !hasBody)
        // The body is read within the timeout too: a client that sends it slowly cannot hold the connection.
        // A changes request may be held for its `wait` besides.
        // The path is parsed once, here.
        let route = api.route(forPath: request.uri.path)
        let timeout = configuration.requestTimeout + api.extraTime(for: route, query: request.uri.query)
        var answer = await withinRequestTimeout(timeout, on: context.eventLoop, reading: bodyReader) { [api] in
            do {
                // The Host header goes into Link and Location: it must be a host and port, nothing else.
                if let authority, !Self.isAuthority(authority) {
                    throw APIError.badRequest("The Host header \"\(authority)\" is not a host name or address.")
                }
                // A route or method refused is refused whatever the body: a read-only server's 405, not a 413.
                if let refusal = api.refusal(of: request.method, on: route, accepting: request.headers[.accept]) {
                    return refusal
                }
                let body = try await collectBody(of: request, from: bodyReader)
                let apiRequest = APIRequest(
                    method: request.method,
                    path: request.uri.path,
                    query: request.uri.query,
                    headers: request.headers,
                    body: body,
                    origin: origin
                )
                return await api.respond(to: apiRequest, on: route)
            } catch let error as APIError {
                return error.response
            } catch {
                return APIError(.badRequest, "The request's body could not be read.").response
            }
        }
        addCORS(to: &answer, request)
        answer.headers[.xContentTypeOptions] = "nosniff"
        if let stream = answer.stream { return streamed(answer, stream, request, context, started) }
        var body = answer.body
        if answer.status.code == 200, body.count >= Self.compressionThreshold, acceptsGzip(request) {
            body = try gzip(body)
            answer.headers[.contentEncoding] = "gzip"
            if let tag = answer.headers[.eTag] { answer.headers[.eTag] = EntityTag.compressed(tag) }
        }
        if request.method == .get || request.method == .head {
            // The same address answers JSON or a page by `Accept`, gzip or not by `Accept-Encoding`.
            answer.headers[.vary] = ([answer.headers[.vary], "Accept", "Accept-Encoding"].compactMap { $0 })
                .joined(separator: ", ")
        }
        if request.method == .head {
            answer.headers[.contentLength] = String(body.count)
            body = []
        }
        let response: Response
        if bodyReader.isFinished {
            response = Response(
                status: answer.status,
                headers: answer.headers,
                body: body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: body))
            )
        } else {
            // The rest of the body was not read: this connection cannot carry another request.
            answer.headers[.connection] = "close"
            let timeout = configuration.requestTimeout
            let channel = context.channel
            response = Response(
                status: answer.status,
                headers: answer.headers,
                body: ResponseBody(contentLength: body.count) { [body] writer in
                    if !body.isEmpty { try await writer.write(ByteBuffer(bytes: body)) }
                    try await writer.finish(nil)
                    await Self.discardRest(of: bodyReader, thenClose: channel, within: timeout)
                }
            )
        }
        accessLog?.record(
            AccessLog.Entry(
                time: Date(),
                remote: context.remote,
                method: request.method.rawValue,
                target: request.uri.string,
                status: answer.status.code,
                bytes: body.count,
                duration: ContinuousClock.now - started
            )
        )
        return response
    }

    /// A response whose body is sent as it is made (``EventStream``): neither compressed nor bounded by the
    /// request timeout; logged when it ends, with the bytes it sent.
    private func streamed(
        _ answer: APIResponse,
        _ stream: @escaping @Sendable (_ send: ([UInt8]) async throws -> Void) async throws -> Void,
        _ request: Request,
        _ context: Context,
        _ started: ContinuousClock.Instant
    ) -> Response {
        let entry = AccessLog.Entry(
            time: Date(),
            remote: context.remote,
            method: request.method.rawValue,
            target: request.uri.string,
            status: answer.status.code,
            bytes: 0,
            duration: .zero
        )
        return Response(
            status: answer.status,
            headers: answer.headers,
            body: ResponseBody { [accessLog] writer in
                var sent = 0
                defer {
                    var entry = entry
                    entry.bytes = sent
                    entry.duration = ContinuousClock.now - started
                    accessLog?.record(entry)
                }
                try await stream { bytes in
                    sent += bytes.count
                    try await writer.write(ByteBuffer(bytes: bytes))
                }
                try await writer.finish(nil)
            }
        )
    }

    /// The request's body, refused with a 413 when it is longer than the limit (by its `Content-Length` before a
    /// byte is read).
    private func collectBody(of request: Request, from reader: RequestBodyReader) async throws -> [UInt8] {
        let limit = configuration.maximumBodyBytes
        let tooLarge = APIError(.contentTooLarge, "The body is larger than the limit of \(limit) bytes.")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        guard let body = try await reader.collect(upTo: limit) else { throw tooLarge }
        return body
    }

    /// Reads and drops what the client still sends of a body the answer did not need, for up to `limit`, then
    /// closes the connection's sending side. A client that sends its whole body before it reads (Python's `urllib`)
    /// would otherwise block in its send and never see the answer. Only the sending side: a full close with bytes
    /// still unread here (a body the timeout cut off, bytes in flight) makes the system reset the connection, and a
    /// reset can drop the answer before the client reads it; after the answer the client sees the end and closes,
    /// which closes the connection (or the idle timeout does). A client still sending at `limit` is cut off whole.
    private static func discardRest(
        of reader: RequestBodyReader,
        thenClose channel: any Channel,
        within limit: Duration
    ) async {
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(limit)) { channel.close(promise: nil) }
        await reader.discardRest()
        deadline.cancel()
        channel.close(mode: .output, promise: nil)
    }

    /// The answer `work` makes, or, when it takes longer than the request timeout, a 408 if the body had not
    /// arrived whole by then (`body` has not read it to its end), else a 503: the work is then cancelled
    /// (a store that does not stop at once is waited for, and its answer dropped).
    ///
    /// The timer is one of the event loop's, cancelled when the answer comes in time: a `Task.sleep` raced against
    /// the work would keep its timer (and hundreds of bytes) until the deadline, for every request answered.
    private func withinRequestTimeout(
        _ timeout: Duration,
        on eventLoop: any EventLoop,
        reading body: RequestBodyReader,
        _ work: @escaping @Sendable () async -> APIResponse
    ) async -> APIResponse {
        // A request on its connection's event loop (``EventLoopBoundChannel``) keeps its work there: an unstructured
        // task would start on Swift's pool.
        let executor = eventLoop.inEventLoop ? EventLoopTaskExecutor.executor(for: eventLoop) : nil
        let work = Task(executorPreference: executor) { await work() }
        let timedOut = ManagedFlag()
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            timedOut.raise()
            work.cancel()
        }
        let answer = await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        guard timedOut.isRaised else { return answer }
        // Read after the work has ended (awaited above, even once cancelled): the reader's one-at-a-time rule holds.
        guard body.isFinished else {
            return APIError(.requestTimeout, "The request's body did not arrive within \(timeout).").response
        }
        return APIError(.serviceUnavailable, "The store did not answer within \(timeout); try again.").response
    }

    private func addCORS(to answer: inout APIResponse, _ request: Request) {
        let origin: String
        switch configuration.cors {
        case .off: return
        case .anyOrigin: origin = "*"
        case .origin(let allowed): origin = allowed
        }
        answer.headers[.accessControlAllowOrigin] = origin
        if origin != "*" { answer.headers[.vary] = "Origin" }
        answer.headers[.accessControlExposeHeaders] = "X-Total-Count, Link, ETag, Location, PostStore-Changes-Token"
        if request.method == .options {
            answer.headers[.accessControlAllowMethods] = answer.headers[.allow]
            answer.headers[.accessControlAllowHeaders] =
                request.headers[.accessControlRequestHeaders] ?? "Content-Type, If-None-Match, If-Match"
            answer.headers[.accessControlMaxAge] = "600"
        }
    }

    /// Whether a `Host` header's value is a host and an optional port: letters, digits, `.`, `-`, `_`, `:` and the
    /// brackets of an IPv6 address.
    static func isAuthority(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                    true
                default: false
                }
            }
    }

    /// Whether `Accept-Encoding` lists gzip (or `*`) with a weight above 0.
    private func acceptsGzip(_ request: Request) -> Bool {
        request.headers[values: .acceptEncoding].flatMap(QualityValues.items(in:)).contains { coding in
            (coding.value == "gzip" || coding.value == "*") && coding.weight > 0
        }
    }

    private func gzip(_ body: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: body)
        return Array(buffer: try buffer.compress(with: .gzip()))
    }
}

/// The request context: Hummingbird's basics, the client's address for the access log, and the connection, for the
/// request's timer and to close it.
struct PostServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address, `-` when the socket has none.
    let remote: String
    /// The request's connection, closed after an answer that left its body unread.
    let channel: any Channel
    /// The event loop of the request's connection.
    var eventLoop: any EventLoop { channel.eventLoop }

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remote = source.channel.remoteAddress?.ipAddress ?? "-"
        channel = source.channel
    }
}

/// A flag raised once, from any thread.
final class ManagedFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
