import Testing

@testable import PostStore

@Suite("Post slot map")
struct PostSlotMapTests {
    @Test("ids close together, far apart, below the first and at the ends of Int all map to their slots")
    func mapsEveryId() {
        var map = PostSlotMap()
        let ids = [10, 11, 12, 14, 18, 1_000, 9, .min, .max, .max - 1, 13, -5, 0]
        for (slot, id) in ids.enumerated() { map.set(slot, for: id) }
        for (slot, id) in ids.enumerated() { #expect(map[id] == slot, "id \(id)") }
        for id in [15, 16, 17, 19, 8, 999, .min + 1, 1] { #expect(map[id] == nil, "id \(id)") }

        map.set(40, for: 1_000)
        map.set(41, for: 12)
        map.remove(11)
        map.remove(.max)
        map.remove(12_345)
        #expect(map[1_000] == 40 && map[12] == 41)
        #expect(map[11] == nil && map[.max] == nil)
        map.set(42, for: 11)
        #expect(map[11] == 42)
    }

    @Test("ids kept apart move into the array when it grows over them, and are never in both")
    func theArrayTakesOverIdsItGrowsOver() {
        var map = PostSlotMap()
        map.set(0, for: 1)
        map.set(1, for: 6)  // too far from 1: kept apart
        map.set(2, for: 3)
        map.set(3, for: 7)  // the array grows over 4, 5 and 6
        map.set(4, for: 2)
        #expect(map[1] == 0 && map[2] == 4 && map[3] == 2 && map[6] == 1 && map[7] == 3)
        #expect(map[4] == nil && map[5] == nil && map[8] == nil)
        map.set(5, for: 12)  // kept apart again
        map.set(6, for: 8)
        map.set(7, for: 11)
        map.set(8, for: 12)
        map.remove(12)
        #expect(map[12] == nil, "removed from wherever it was")
        #expect(map[6] == 1 && map[8] == 6 && map[11] == 7)
    }
}
