import Foundation
import PostStore
import Testing

@Suite("Sync state")
struct SyncStateTests {
    @Test("times are kept to the millisecond, and out-of-range times are clamped instead of trapping")
    func clampedTimes() {
        #expect(SyncState(source: "s", syncedAt: Date(timeIntervalSince1970: 1.25)).syncedAtMilliseconds == 1250)
        #expect(SyncState(source: "s", syncedAt: .distantFuture).syncedAtMilliseconds == 64_092_211_200_000)
        #expect(SyncState(source: "s", syncedAt: Date(timeIntervalSince1970: .infinity)).syncedAtMilliseconds == .max)
        #expect(SyncState(source: "s", syncedAt: Date(timeIntervalSince1970: -.infinity)).syncedAtMilliseconds == .min)
        #expect(SyncState(source: "s", syncedAt: Date(timeIntervalSince1970: .nan)).syncedAtMilliseconds == 0)
    }
}
