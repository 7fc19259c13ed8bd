/// Where each post id's slot is in a ``PostTable``: an array indexed by id for ids that come close together (most
/// stores number their posts 1, 2, 3…), a dictionary for the others.
///
/// The array takes 4 bytes an id; a dictionary of 100,000 ids takes about 30 bytes each (its buckets are at most
/// three-quarters full and rounded up to a power of two), and a lookup in it hashes.
struct PostSlotMap: Sendable {
    /// The id of `dense[0]`.
    private var base = 0
    /// The slot of id `base + offset` at `offset`, or -1 where no post has that id.
    private var dense: [Int32] = []
    /// The slots of ids outside `dense`.
    private var sparse: [Int: Int32] = [:]

    /// The most ids without a post that a new id may leave between itself and the end of `dense`, so that the array
    /// stays at least about a quarter full.
    private static let largestGap = 3

    /// An empty map.
    init() {}

    /// `id`'s offset in `dense`, when it lies inside it.
    private func denseOffset(of id: Int) -> Int? {
        let (offset, overflow) = id.subtractingReportingOverflow(base)
        return !overflow && offset >= 0 && offset < dense.count ? offset : nil
    }

    /// The slot of the post with this id, if there is one.
    subscript(id: Int) -> Int? {
        if let offset = denseOffset(of: id) {
            let slot = dense[offset]
            return slot < 0 ? nil : Int(slot)
        }
        return sparse[id].map(Int.init)
    }

    /// Records the slot of `id`, replacing any.
    mutating func set(_ slot: Int, for id: Int) {
        precondition(slot < Int32.max, "A post table holds fewer than 2^31 slots.")
        if dense.isEmpty && sparse.isEmpty { base = id }
        if let offset = denseOffset(of: id) {
            dense[offset] = Int32(slot)
            return
        }
        let (end, endOverflows) = base.addingReportingOverflow(dense.count)
        let (gap, gapOverflows) = id.subtractingReportingOverflow(end)
        guard !endOverflows, !gapOverflows, (0...Self.largestGap).contains(gap) else {
            sparse[id] = Int32(slot)
            return
        }
        // The array grows to take `id`; ids kept in the dictionary that it now covers move into it.
        for covered in end..<id {
            dense.append(sparse.removeValue(forKey: covered) ?? -1)
        }
        sparse[id] = nil
        dense.append(Int32(slot))
    }

    /// Forgets `id`.
    mutating func remove(_ id: Int) {
        if let offset = denseOffset(of: id) {
            dense[offset] = -1
        } else {
            sparse[id] = nil
        }
    }
}
