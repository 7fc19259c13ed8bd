extension Array where Element == Int {
    /// Whether a sorted array holds `value`, by binary search.
    func containsSorted(_ value: Int) -> Bool {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low] == value
    }
}
