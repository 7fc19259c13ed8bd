/// One versioned change to an engine's schema, from a `Migrations/ENGINE/NNNN_description.sql` file.
package struct SchemaMigration: Sendable, Hashable {
    /// The version, the file name's number: 1 for `0001_create_posts.sql`.
    package let version: Int

    /// The file name.
    package let name: String

    /// The SQL script.
    package let sql: String

    /// A fingerprint of the script (FNV-1a, 64 bits, hex, over the text with each `\r\n` and each lone `\r` read as
    /// `\n`) that detects a file changed after it was applied. Not a security measure: it guards against accidents, not attackers.
    package let checksum: String

    /// Creates a migration from a file name of the form `NNNN_description.sql` and its SQL.
    ///
    /// - Returns: `nil` when the name is not of that form.
    package init?(fileName: String, sql: String) {
        let stem = fileName.split(separator: "_", maxSplits: 1)
        guard fileName.hasSuffix(".sql"), stem.count == 2, stem[0].count == 4, let version = Int(stem[0]),
            version > 0
        else { return nil }
        self.version = version
        self.name = fileName
        self.sql = sql
        self.checksum = Self.fingerprint(sql)
    }

    /// The migrations of one engine's `Migrations/` folder as its target embeds them, in version order.
    ///
    /// - Parameters:
    ///   - files: Each file's name and bytes.
    ///   - folder: The folder, for the message when a file is misnamed.
    package static func list(_ files: [(fileName: String, bytes: [UInt8])], folder: String) -> [SchemaMigration] {
        files.map { file in
            guard
                let migration = SchemaMigration(
                    fileName: file.fileName,
                    sql: String(decoding: file.bytes, as: UTF8.self)
                )
            else { preconditionFailure("\(folder)/\(file.fileName) is not named NNNN_description.sql") }
            return migration
        }
    }

    private static func fingerprint(_ sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            defer { previous = byte }
            if previous == UInt8(ascii: "\r"), byte == UInt8(ascii: "\n") { continue }
            hash = (hash ^ UInt64(byte == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
