import PostStore

extension JSONWriter {
    /// Appends the `changes` key and object of a version 2 document (see `JSONStoreDocument`), its pairs in order.
    mutating func changes(_ history: ChangeHistory, postsDigest: String) {
        key("changes")
        raw("{\n    ")
        key("storeId")
        string(history.storeID)
        for (name, value) in [
            ("revision", history.revision), ("floor", history.floor), ("historyLimit", history.limit),
        ] {
            raw(", ")
            key(name)
            integer(value)
        }
        raw(",\n    ")
        key("postsDigest")
        string(postsDigest)
        for (name, rows) in [
            ("postRevisions", history.postRevisions.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }),
            ("tombstones", history.tombstones.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }),
            (
                "writes",
                history.writes.sorted { $0.key < $1.key }.map { [$0.key, $0.value.lowerBound, $0.value.upperBound] }
            ),
        ] {
            raw(",\n    ")
            key(name)
            raw("[")
            for (index, row) in rows.enumerated() {
                raw(index == 0 ? "[" : ", [")
                raw(row.map(String.init).joined(separator: ", "))
                raw("]")
            }
            raw("]")
        }
        raw("\n  }")
    }
}
