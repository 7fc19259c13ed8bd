import PostStore

extension JSONWriter {
    /// Appends a sync state as one object, with the keys `SyncState`'s `Codable` form reads back.
    mutating func syncState(_ state: SyncState) {
        raw("{")
        key("source")
        string(state.source)
        raw(", ")
        key("etag")
        if let etag = state.etag { string(etag) } else { raw("null") }
        for (name, value) in [
            ("syncedAtMilliseconds", Int(state.syncedAtMilliseconds)), ("fetched", state.fetched),
            ("inserted", state.inserted), ("updated", state.updated), ("unchanged", state.unchanged),
            ("deleted", state.deleted),
        ] {
            raw(", ")
            key(name)
            integer(value)
        }
        if let token = state.changeToken {
            raw(", ")
            key("changeToken")
            string(token.description)
        }
        raw("}")
    }
}
