public import Foundation
public import Logging
public import PostStore
import PostStoreEngines

extension HTTPPostDataService {
    /// Fetches posts over `URLSession`, waiting on the system clock with system randomness for jitter.
    ///
    /// Redirects are followed up to 5 times, never from `https` to another scheme.
    ///
    /// For example:
    ///
    /// ```swift
    /// let service = try HTTPPostDataService(pageSize: 50)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The endpoint; `http` or `https`.
    ///   - pageSize: Posts per page (1 or more), or `nil` for one request.
    ///   - timeout: How long each request waits for its answer.
    ///   - retryPolicy: When failed requests are tried again.
    ///   - limits: How much the source may send: the most bytes per post, and for the answers of one fetch together.
    ///   - logger: Where retries and pages are logged; `nil` (the default) logs nothing.
    /// - Throws: `PostStoreError/Code/invalidArgument` for a URL that is not `http` or `https` or that holds a
    ///   user name or password, a page size below 1, a timeout that is not positive or a limit below 1 byte.
    public init(
        url: URL = defaultURL,
        pageSize: Int? = nil,
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        limits: PayloadLimits = PayloadLimits(),
        logger: Logger? = nil
    ) throws(PostStoreError) {
        try self.init(
            url: url,
            pageSize: pageSize,
            timeout: timeout,
            retryPolicy: retryPolicy,
            limits: limits,
            transport: URLSessionHTTPTransport(),
            clock: SystemClock(),
            random: SystemRandomSource(),
            logger: logger
        )
    }
}
