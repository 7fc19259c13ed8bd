/// Which blocks of a ``PostTable``'s slots may hold a search's terms: a Bloom filter per block of consecutive slots,
/// of the trigrams (three consecutive bytes) of each post's lowercased title and body.
///
/// A term of three or more bytes occurs in a field only where each of its trigrams does, so a block whose filter
/// lacks one of them is skipped without reading its text; the posts of the other blocks are matched as usual. A
/// filter only ever says "maybe": a removed or rewritten post leaves its bits set, which costs a block read, never a
/// wrong answer. The idea is ClickHouse's `ngrambf_v1` skip index; SQLite's FTS5 `trigram` tokenizer and
/// PostgreSQL's `pg_trgm` keep the same trigrams exactly, at several times the text's size.
///
/// A block closes once its posts hold ``blockTextBytes`` of text (8 KiB), and its filter has ``filterBits`` bits, one
/// set by each trigram's hash: 512 bytes for about 8 KiB of text, 6% of its size. The 100,000 generated posts of
/// `scripts/benchmarks/serve-benchmark.py` (a lorem-ipsum vocabulary, 2,847 blocks) set a seventh of each filter's
/// bits, so a term of five trigrams passes the filter of a block that does not hold it about once in 15,000 blocks: a
/// search for "zyzzyva" reads the 10 blocks that hold its 10 posts, and no other.
struct TrigramBlockFilter: Sendable {
    /// The text, in bytes, after which a block closes.
    let blockTextBytes: Int
    /// The bits of one block's filter: a power of two.
    static let filterBits = 4096
    private static let wordsPerBlock = filterBits / 64
    private static let hashShift = UInt32(32 - filterBits.trailingZeroBitCount)

    /// The first slot of each block, ascending.
    private var firstSlots: [Int] = []
    /// The filters, ``wordsPerBlock`` words a block.
    private var words: [UInt64] = []
    /// The text of the posts in the last block, which is open while it holds less than ``blockTextBytes``.
    private var lastBlockTextBytes = 0

    /// No blocks.
    ///
    /// - Parameter blockTextBytes: The text after which a block closes; tests make it small to get many blocks.
    init(blockTextBytes: Int = 8192) {
        self.blockTextBytes = blockTextBytes
    }

    /// How many blocks there are.
    var blockCount: Int { firstSlots.count }

    /// The slots of `block`: from its first slot to the next block's, or to `slotCount` for the last.
    func slots(of block: Int, slotCount: Int) -> Range<Int> {
        firstSlots[block]..<(block + 1 < firstSlots.count ? firstSlots[block + 1] : slotCount)
    }

    /// The block of a slot already added.
    func block(of slot: Int) -> Int {
        var low = 0
        var high = firstSlots.count
        // The last block whose first slot is at most `slot`.
        while high - low > 1 {
            let middle = (low + high) / 2
            if firstSlots[middle] <= slot { low = middle } else { high = middle }
        }
        return low
    }

    /// The block of a new slot, after every slot added so far: the last block, or a new one when that is full.
    ///
    /// - Parameters:
    ///   - slot: The new slot.
    ///   - textBytes: The bytes of its title and body.
    /// - Returns: The block the slot's trigrams go into.
    mutating func blockForNewSlot(_ slot: Int, textBytes: Int) -> Int {
        if firstSlots.isEmpty || lastBlockTextBytes >= blockTextBytes {
            firstSlots.append(slot)
            words.append(contentsOf: repeatElement(0, count: Self.wordsPerBlock))
            lastBlockTextBytes = 0
        }
        lastBlockTextBytes += textBytes
        return firstSlots.count - 1
    }

    /// Sets the bits of the trigrams of `bytes`, lowercasing ASCII letters, in `block`'s filter.
    mutating func insertTrigrams(of bytes: UnsafeBufferPointer<UInt8>, into block: Int) {
        guard bytes.count >= 3 else { return }
        let start = block * Self.wordsPerBlock
        words.withUnsafeMutableBufferPointer { words in
            var trigram = UInt32(bytes[0].lowercasedASCII) << 8 | UInt32(bytes[1].lowercasedASCII)
            for byte in bytes[2...] {
                trigram = (trigram << 8 | UInt32(byte.lowercasedASCII)) & 0xFF_FFFF
                let bit = Self.bit(of: trigram)
                words[start + bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
    }

    /// The filter bits a search's terms need, without repeats: every trigram of each term of three bytes or more.
    ///
    /// - Parameter terms: The lowercased terms' UTF-8 bytes.
    /// - Returns: The bits; none when every term is shorter than three bytes, and every block may match.
    static func bits(of terms: [[UInt8]]) -> [Int] {
        var bits = Set<Int>()
        for term in terms where term.count >= 3 {
            for index in 2..<term.count {
                let trigram = UInt32(term[index - 2]) << 16 | UInt32(term[index - 1]) << 8 | UInt32(term[index])
                bits.insert(bit(of: trigram))
            }
        }
        return bits.sorted()
    }

    /// Whether every one of `bits` is set in `block`'s filter: whether its posts may hold the search's terms.
    func mayMatch(_ block: Int, bits: [Int]) -> Bool {
        let start = block * Self.wordsPerBlock
        return bits.allSatisfy { words[start + $0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
    }

    /// A trigram's bit: its 24 bits hashed by Fibonacci hashing to ``filterBits``.
    @inline(__always)
    private static func bit(of trigram: UInt32) -> Int {
        Int((trigram &* 0x9E37_79B1) >> hashShift)
    }
}
