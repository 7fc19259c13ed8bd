/// Where an answer of the changes feed ends, so that it covers whole writes and leads to a state the store held.
///
/// The changes since revision `T` up to revision `R` are the posts and tombstones whose revision lies in `(T, R]`,
/// read as they are now. Applied to the state at `T`, they give the state at `R` only if no post written in
/// `(T, R]` was written again after `R` (its version at `R` is gone; the copy would keep its version at `T`, a
/// mixture the store never held). Each engine keeps, for every write that replaced or deleted a version, the range
/// of revisions of the versions it overwrote (a ``ChangeHistory/WriteRecord``); an end `R` is moved to every later
/// write whose range meets `(T, R]` until none does. The ranges make this conservative: an answer may grow past
/// its limit, up to the newest revision, but never leads to a state the store did not hold.
package enum ChangePageEnd {
    /// Finds the end of an answer.
    ///
    /// - Parameters:
    ///   - since: The token's revision, `T`.
    ///   - head: The store's revision now.
    ///   - limit: How many changes the answer should hold at most, 1 or more (it holds more when it must).
    ///   - revisionOfChange: The revision of the `n`th change after `since` in revision order (1-based), or `nil`
    ///     when there are fewer than `n`.
    ///   - latestOverwrite: The latest write after its second argument whose overwritten range meets
    ///     (first argument, second argument], or `nil`.
    /// - Returns: `R`, between `since` and `head`.
    package static func find<Failure: Error>(
        since: Int,
        head: Int,
        limit: Int,
        revisionOfChange: (Int) throws(Failure) -> Int?,
        latestOverwrite: (_ since: Int, _ end: Int) throws(Failure) -> Int?
    ) throws(Failure) -> Int {
        // Every change fits: the answer leads to the newest state.
        guard try revisionOfChange(limit + 1) != nil, var end = try revisionOfChange(limit) else { return head }
        // The limit's own change ends the answer, with the rest of its write, and every later write that overwrote
        // a version the answer would hold.
        while let later = try latestOverwrite(since, end), later > end {
            end = later
        }
        return end
    }
}
