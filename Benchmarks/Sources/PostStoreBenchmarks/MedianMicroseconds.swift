/// The median time of `body` over `repetitions` runs, in microseconds; the counts it returns must add up to more than
/// 0, a check that it did work.
func medianMicroseconds(repetitions: Int, _ body: () async throws -> Int) async throws -> Double {
    var times: [Double] = []
    times.reserveCapacity(repetitions)
    var found = 0
    for _ in 0..<repetitions {
        let start = ContinuousClock.now
        found += try await body()
        times.append((ContinuousClock.now - start).seconds * 1e6)
    }
    try expect(found > 0, "a query found nothing")
    times.sort()
    return times[times.count / 2]
}
