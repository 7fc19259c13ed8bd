public import Foundation
import Logging
public import PostStore

extension HTTPPostDataService {
    /// Fetches posts over `URLSession`, waiting on the system clock with system randomness for jitter, and logging
    /// to a `Logger` labelled `PostStore.HTTPPostDataService`.
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
    /// - Throws: ``PostStoreError/Code/invalidArgument``, as
    ///   ``init(url:pageSize:timeout:retryPolicy:limits:client:clock:random:logger:)``.
    public init(
        url: URL = defaultURL,
        pageSize: Int? = nil,
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = RetryPolicy(),
        limits: PayloadLimits = PayloadLimits()
    ) throws(PostStoreError) {
        try self.init(
            url: url,
            pageSize: pageSize,
            timeout: timeout,
            retryPolicy: retryPolicy,
            limits: limits,
            client: URLSessionHTTPClient(),
            clock: SystemClock(),
            random: SystemRandomSource(),
            logger: Logger(label: "PostStore.HTTPPostDataService")
        )
    }
}
