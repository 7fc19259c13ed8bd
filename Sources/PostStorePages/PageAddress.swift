/// A page's address as a path and its query's parameters, in order: what the pages' links, forms and live updates
/// are made of, so that the address bar always holds the API's own parameters, a link someone else can open.
package struct PageAddress: Equatable {
    /// The path (`/posts`, `/users/3/posts`).
    var path: String
    /// The parameters, in order, each decoded.
    package var parameters: [(name: String, value: String)]

    /// Creates the value from its parts.
    package init(path: String, parameters: [(name: String, value: String)]) {
        self.path = path
        self.parameters = parameters
    }

    package static func == (lhs: PageAddress, rhs: PageAddress) -> Bool {
        lhs.path == rhs.path && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    /// The value of a parameter, its first.
    func value(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The address with a parameter set to one value (in the place of its first), or removed for `nil`.
    func setting(_ name: String, to value: String?) -> PageAddress {
        var copy = self
        let index = copy.parameters.firstIndex { $0.name == name }
        copy.parameters.removeAll { $0.name == name }
        if let value {
            copy.parameters.insert((name, value), at: min(index ?? copy.parameters.count, copy.parameters.count))
        }
        return copy
    }

    /// The address with its window made whole as a page shows it. A window given in part would be the API's: ten
    /// posts (`_page` alone), every post (`_start` alone), no pages (`_limit` alone); a `_limit` of `size` and the
    /// first `_page` complete it. With `fillingNone`, an address without a window gets both.
    package func completingWindow(size: Int, fillingNone: Bool) -> PageAddress {
        let given = Set(parameters.map(\.name))
        guard !given.isDisjoint(with: ["_page", "_limit", "_start", "_end"]) else {
            return fillingNone ? setting("_page", to: "1").setting("_limit", to: String(size)) : self
        }
        var address = self
        if given.contains("_page") || given.contains("_start") && !given.contains("_end"), !given.contains("_limit") {
            address = address.setting("_limit", to: String(size))
        }
        if given.contains("_limit"), given.isDisjoint(with: ["_page", "_start", "_end"]) {
            address = address.setting("_page", to: "1")
        }
        return address
    }

    /// The parameters percent-encoded, as a query without its `?`.
    package var query: String {
        parameters.map { Self.encoded($0.name) + "=" + Self.encoded($0.value) }.joined(separator: "&")
    }

    /// The address as sent: the path, then `?` and the query, when there are parameters.
    package var text: String {
        parameters.isEmpty ? path : path + "?" + query
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
