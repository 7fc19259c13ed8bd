import ArgumentParser
import Foundation

/// A size given on the command line: a number of bytes, or with a binary unit — `512K`, `64M`, `1G` (`KiB`, `MB`
/// and lowercase work too; every unit is a power of 1024).
struct ByteSize: ExpressibleByArgument, Equatable {
    /// The size in bytes.
    let bytes: Int

    init(bytes: Int) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = text.prefix(while: \.isNumber)
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let shifts: [String: Int] = [
            "": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20, "G": 30, "GB": 30, "GIB": 30,
        ]
        guard let number = Int(digits), number > 0, let shift = shifts[unit] else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    /// Parses a size, or says what a size must look like.
    ///
    /// - Parameter argument: The text on the command line.
    /// - Throws: `ValidationError` for anything but a whole number of bytes above 0 with an optional unit.
    static func parse(_ argument: String) throws -> ByteSize {
        guard let size = ByteSize(argument: argument) else {
            throw ValidationError(
                "a size is a whole number of bytes above 0, with K, M or G for binary units (512K, 64M, 1G)"
            )
        }
        return size
    }

    var defaultValueDescription: String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }
}
