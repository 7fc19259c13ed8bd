#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostTable {
    /// The posts `query` selects, sorted and windowed, and how many it selects without its window: the answer of
    /// ``PostQuery/evaluatePage(over:revision:)`` over the same posts, found through the index.
    ///
    /// The index first catches up with the writes since the last query. The candidates are then the posts of the
    /// query's `ids`, else those of its users' lists, else those of the blocks whose trigram filters hold every
    /// trigram of the search (every post when the search has no term of three bytes or more); each is matched
    /// against the filters and the search (``ByteTextSearch``), and the matches are sorted in the query's order and
    /// windowed. One user's posts by id with no search, a user's page, are cut straight from the user's list. Only
    /// the window's posts are copied out of the table.
    ///
    /// - Parameter query: The query.
    /// - Returns: The window's posts, and how many posts the query selects without its window.
    /// - Throws: ``PostStoreError/Code/invalidQuery`` for a negative limit or offset.
    mutating func answer(_ query: PostQuery) throws(PostStoreError) -> (posts: [Post], total: Int) {
        try query.validate()
        index.catchUp(slots: slots, text: text)
        let search = ByteTextSearch(TextSearch(query.search))
        if query.ids == nil, search.isEmpty, let users = query.userIds, users.count == 1,
            let user = users.first, query.sort == .idAscending || query.sort == .idDescending
        {
            let ids = index.ids(ofUser: user, slots: slots, slotOfId: slotOfId)
            let window = query.windowRange(count: ids.count)
            let ascending = query.sort == .idAscending
            let posts = window.map { position in
                let id = ascending ? ids[position] : ids[ids.count - 1 - position]
                return self[id]!
            }
            return (posts, ids.count)
        }
        var matches = matchingSlots(query, search)
        sort(&matches, by: query.sort)
        return (matches[query.windowRange(count: matches.count)].map(post(inSlot:)), matches.count)
    }

    /// The slots of every post that passes the query's filters and search, in no particular order.
    private mutating func matchingSlots(_ query: PostQuery, _ search: ByteTextSearch) -> [Int] {
        let candidates: [Int]
        if let ids = query.ids {
            candidates = ids.compactMap { slotOfId[$0] }
        } else if let users = query.userIds {
            candidates = users.flatMap { user in
                index.ids(ofUser: user, slots: slots, slotOfId: slotOfId).map { slotOfId[$0]! }
            }
        } else {
            return slotsMatching(search)
        }
        let filter = index.filter
        var scratch = ByteTextSearch.Scratch()
        return text.withUnsafeBufferPointer { text in
            candidates.filter { slot in
                (query.userIds?.contains(slots[slot].userId) ?? true)
                    && (search.filterBits.isEmpty || filter.mayMatch(filter.block(of: slot), bits: search.filterBits))
                    && matches(slot, search, text: text, scratch: &scratch)
            }
        }
    }

    /// The live slots whose posts match the search, reading only the blocks whose filters may hold it.
    private func slotsMatching(_ search: ByteTextSearch) -> [Int] {
        let filter = index.filter
        var matching: [Int] = []
        var scratch = ByteTextSearch.Scratch()
        text.withUnsafeBufferPointer { text in
            for block in 0..<filter.blockCount
            where search.filterBits.isEmpty || filter.mayMatch(block, bits: search.filterBits) {
                for slot in filter.slots(of: block, slotCount: slots.count)
                where slots[slot].isLive && matches(slot, search, text: text, scratch: &scratch) {
                    matching.append(slot)
                }
            }
        }
        return matching
    }

    /// Whether a live, indexed slot's post matches the search.
    private func matches(
        _ slot: Int,
        _ search: ByteTextSearch,
        text: UnsafeBufferPointer<UInt8>,
        scratch: inout ByteTextSearch.Scratch
    ) -> Bool {
        if search.isEmpty { return true }
        let entry = slots[slot]
        let ascii = index.fieldsAreASCII(inSlot: slot)
        return search.matches(
            title: ByteTextSearch.Field(
                bytes: UnsafeBufferPointer(rebasing: text[entry.titleRange]),
                isASCII: ascii.title
            ),
            body: ByteTextSearch.Field(
                bytes: UnsafeBufferPointer(rebasing: text[entry.bodyRange]),
                isASCII: ascii.body
            ),
            scratch: &scratch
        )
    }

    /// Sorts slots in a query's order (``PostQuery/Sort/areInIncreasingOrder(ids:userIds:compareTitles:)``),
    /// titles compared as bytes where they lie; slots already in order are left as they are.
    private func sort(_ matches: inout [Int], by order: PostQuery.Sort) {
        slots.withUnsafeBufferPointer { slots in
            text.withUnsafeBufferPointer { text in
                let precedes = { (lhs: Int, rhs: Int) -> Bool in
                    let (left, right) = (slots[lhs], slots[rhs])
                    return order.areInIncreasingOrder(ids: (left.id, right.id), userIds: (left.userId, right.userId)) {
                        let common = min(left.titleCount, right.titleCount)
                        let bytes =
                            common == 0
                            ? 0 : memcmp(text.baseAddress! + left.start, text.baseAddress! + right.start, common)
                        return bytes != 0 ? Int(bytes) : left.titleCount - right.titleCount
                    }
                }
                if !zip(matches, matches.dropFirst()).allSatisfy(precedes) {
                    matches.sort(by: precedes)
                }
            }
        }
    }
}
