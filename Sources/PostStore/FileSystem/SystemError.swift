#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An operating-system error number, kept as the ``PostStoreError/cause`` of an I/O failure.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value, for example `ENOSPC`.
    let code: Int32

    /// Wraps an `errno` value.
    ///
    /// - Parameter code: The `errno` value.
    package init(code: Int32) { self.code = code }

    /// The system's text for the error, for example "No space left on device".
    package var description: String { String(cString: strerror(code)) }
}
