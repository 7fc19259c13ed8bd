extension Array where Element == Int {
    /// Whether a sorted array holds `value`, by binary search.
    package func containsSorted(_ value: Int) -> Bool {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low] == value
    }

    /// The first value that appears again, in the array's order: where it appears again and where it appeared
    /// first; `nil` when no value repeats.
    ///
    /// A repeat is looked for in `sorted` (this array, sorted) first, so the hash table that finds the positions
    /// is built only when there is one: for ids, which usually come in order, sorting once costs far less than a
    /// lookup per id.
    func firstRepeat(sorted: [Int]) -> (position: Int, earlier: Int)? {
        guard zip(sorted, sorted.dropFirst()).contains(where: { $0 == $1 }) else { return nil }
        var first = [Int: Int](minimumCapacity: count)
        for (position, value) in enumerated() {
            if let earlier = first.updateValue(position, forKey: value) { return (position, earlier) }
        }
        return nil
    }

    /// The upserted ids of a write, sorted, once none repeats: the check ``PostChangeSet/validate()`` makes of a
    /// change set's own upserts, for a stream's posts too.
    ///
    /// - Throws: ``PostStoreError/Code/constraintViolation`` naming the first repeat in the upserts' order.
    package func sortedCheckingUpsertRepeats() throws(PostStoreError) -> [Int] {
        let sorted = self.sorted()
        if let (position, _) = firstRepeat(sorted: sorted) {
            throw PostStoreError(
                .constraintViolation,
                "Two posts in one batch have the same id \(self[position]) (the second at index \(position))."
            )
        }
        return sorted
    }
}
