/// The items of a header that ranks them by weight (RFC 9110's quality values): `Accept` and `Accept-Encoding`,
/// such as `text/html, application/json;q=0.9` or `br, gzip;q=0.5`.
enum QualityValues {
    /// Each item of the header, lowercased, with its weight (`q=`, 1 when it gives none), in order.
    static func items(in header: String) -> [(value: String, weight: Double)] {
        header.split(separator: ",").compactMap { item in
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let value = parts.first, !value.isEmpty else { return nil }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (value, weight)
        }
    }
}
