/// What a ``PostTable`` keeps so that a query need not read every post: each user's post ids in order, whether each
/// title and body is all ASCII, and trigram filters over blocks of slots (``TrigramBlockFilter``).
///
/// It covers the slots before ``indexedSlots`` and is built lazily: a write only appends slots, and the next query
/// indexes the slots added since (``catchUp(slots:text:)``), so a sync of a million posts that no query reads
/// between its writes builds nothing until the first query, which reads the text once. A write to a slot already
/// covered keeps the index true as it goes: a removed post's id stays in its user's list, the list marked untidy
/// and sorted out by the next query of that user; a post rewritten in place adds its new trigrams to its block's
/// filter, whose old bits stay.
struct PostTableIndex: Sendable {
    /// How many slots, from the first, the index covers.
    private(set) var indexedSlots = 0
    /// Each user's post ids, ascending and without repeats, unless the user is in ``untidyUsers``.
    private var idsOfUser: [Int: [Int]] = [:]
    /// Users whose list may be out of order or hold ids repeated, removed, or now another user's.
    private var untidyUsers = Set<Int>()
    /// For each covered slot, ``titleIsASCII`` and ``bodyIsASCII`` bits.
    private var asciiFields: [UInt8] = []
    /// The trigram filters of the covered slots.
    private(set) var filter: TrigramBlockFilter
    /// A field that is not ASCII, lowercased for its trigrams; kept to be filled again.
    private var lowercased: [UInt8] = []

    private static let titleIsASCII: UInt8 = 1
    private static let bodyIsASCII: UInt8 = 2

    /// An empty index, covering no slot.
    ///
    /// - Parameter filter: Empty filters, as large as blocks should be.
    init(filter: TrigramBlockFilter = TrigramBlockFilter()) {
        self.filter = filter
    }

    /// An empty index with blocks as large as this one's.
    var emptied: PostTableIndex {
        PostTableIndex(filter: TrigramBlockFilter(blockTextBytes: filter.blockTextBytes))
    }

    /// Indexes the slots added since the last call.
    mutating func catchUp(slots: [PostTable.Slot], text: [UInt8]) {
        guard indexedSlots < slots.count else { return }
        asciiFields.reserveCapacity(slots.count)
        text.withUnsafeBufferPointer { text in
            for slot in indexedSlots..<slots.count {
                asciiFields.append(0)
                let entry = slots[slot]
                guard entry.isLive else { continue }
                append(entry.id, toUser: entry.userId)
                let block = filter.blockForNewSlot(slot, textBytes: entry.textCount)
                indexFields(of: entry, inSlot: slot, block: block, text: text)
            }
        }
        indexedSlots = slots.count
    }

    /// Notes that a slot's post was removed.
    mutating func didRemove(slot: Int, userId: Int) {
        guard slot < indexedSlots else { return }
        untidyUsers.insert(userId)
    }

    /// Notes that a slot's post was rewritten in place.
    mutating func didRewrite(slot: Int, from old: PostTable.Slot, to new: PostTable.Slot, text: [UInt8]) {
        guard slot < indexedSlots else { return }
        if new.userId != old.userId {
            untidyUsers.insert(old.userId)
            append(new.id, toUser: new.userId)
        }
        text.withUnsafeBufferPointer { text in
            indexFields(of: new, inSlot: slot, block: filter.block(of: slot), text: text)
        }
    }

    /// Whether a covered slot's title and body are all ASCII.
    func fieldsAreASCII(inSlot slot: Int) -> (title: Bool, body: Bool) {
        (asciiFields[slot] & Self.titleIsASCII != 0, asciiFields[slot] & Self.bodyIsASCII != 0)
    }

    /// The ids of a user's posts, ascending; a list that writes left untidy is sorted out first.
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - slots: The table's slots, every one covered.
    ///   - slotOfId: The table's slot of each id.
    mutating func ids(ofUser user: Int, slots: [PostTable.Slot], slotOfId: PostSlotMap) -> [Int] {
        if untidyUsers.remove(user) != nil, var ids = idsOfUser.removeValue(forKey: user) {
            ids.sort()
            var kept = 0
            var previous: Int?
            for position in ids.indices {
                let id = ids[position]
                defer { previous = id }
                guard id != previous, let slot = slotOfId[id], slots[slot].userId == user else { continue }
                ids[kept] = id
                kept += 1
            }
            ids.removeLast(ids.count - kept)
            if !ids.isEmpty { idsOfUser[user] = ids }
        }
        return idsOfUser[user] ?? []
    }

    private mutating func append(_ id: Int, toUser user: Int) {
        if let last = idsOfUser[user]?.last, last >= id { untidyUsers.insert(user) }
        idsOfUser[user, default: []].append(id)
    }

    /// Records whether a slot's fields are ASCII, and adds their trigrams to `block`'s filter: a field that is not
    /// ASCII lowercased by Swift first, as a search lowercases it.
    private mutating func indexFields(
        of entry: PostTable.Slot,
        inSlot slot: Int,
        block: Int,
        text: UnsafeBufferPointer<UInt8>
    ) {
        let title = indexField(UnsafeBufferPointer(rebasing: text[entry.titleRange]), block: block)
        let body = indexField(UnsafeBufferPointer(rebasing: text[entry.bodyRange]), block: block)
        asciiFields[slot] = (title ? Self.titleIsASCII : 0) | (body ? Self.bodyIsASCII : 0)
    }

    /// Adds a field's trigrams to `block`'s filter, and tells whether the field is ASCII.
    private mutating func indexField(_ field: UnsafeBufferPointer<UInt8>, block: Int) -> Bool {
        if field.allSatisfy({ $0 < 0x80 }) {
            filter.insertTrigrams(of: field, into: block)
            return true
        }
        UTF8Lowercasing.lowercase(field, into: &lowercased)
        lowercased.withUnsafeBufferPointer { filter.insertTrigrams(of: $0, into: block) }
        return false
    }
}
