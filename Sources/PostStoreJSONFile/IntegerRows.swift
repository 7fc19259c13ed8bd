/// Rows of integers as a JSON store writes its change history, `[[1, 12], [2, 12]]`, kept as one flat array.
///
/// Decoded as `[[Int]]`, the 100,000 rows of a store of 100,000 posts made an array each: 6 MB of small
/// allocations, freed again just before the posts are read, which the allocator kept.
struct IntegerRows: Decodable {
    /// Each row's integers, one row after the other.
    private var values: [Int] = []
    /// How many rows there are.
    private var rowCount = 0
    /// The length of every row, or -1 when rows differ in length; `nil` with no rows.
    private var width: Int?

    init(from decoder: any Decoder) throws {
        var rows = try decoder.unkeyedContainer()
        values.reserveCapacity(2 * (rows.count ?? 0))
        while !rows.isAtEnd {
            var row = try rows.nestedUnkeyedContainer()
            let start = values.count
            while !row.isAtEnd { values.append(try row.decode(Int.self)) }
            let length = values.count - start
            width = width.map { $0 == length ? $0 : -1 } ?? length
            rowCount += 1
        }
    }

    /// The rows keyed by their first integer, each made a value by `value`.
    ///
    /// - Parameters:
    ///   - width: How many integers each row must have.
    ///   - value: The value of a row (all of its integers), or `nil` when the row is not valid.
    /// - Returns: The dictionary, or `nil` when a row has another length, a key repeats or a row is not valid.
    func dictionary<Value>(width: Int, value: (ArraySlice<Int>) -> Value?) -> [Int: Value]? {
        guard rowCount == 0 || self.width == width else { return nil }
        var dictionary: [Int: Value] = [:]
        dictionary.reserveCapacity(rowCount)
        for start in stride(from: 0, to: values.count, by: width) {
            let row = values[start..<start + width]
            guard let rowValue = value(row), dictionary.updateValue(rowValue, forKey: values[start]) == nil else {
                return nil
            }
        }
        return dictionary
    }
}
