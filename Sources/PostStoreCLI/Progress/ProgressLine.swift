import PostStore

/// The text of one progress line: what a phase is called, a bar, counts, a rate and the time left (or, until that
/// can be estimated, the time so far) while it runs; its counts and elapsed time once it has finished. Never wider
/// than the width it is given.
struct ProgressLine {
    /// What the line says the phase is doing, for example "Reading posts.json".
    let label: String
    /// The phase's latest update.
    let progress: WorkProgress
    /// How long the phase has run.
    let elapsed: Duration

    /// The line, fitted into `width` columns.
    ///
    /// The layout depends on the width and the phase's totals only, never on the numbers of the moment, so the bar
    /// stays put while the phase runs: each layout reserves room for its parts at their widest. The first layout
    /// with a bar that shows the whole label is drawn (the bytes, then the rate, give way to the label); failing
    /// that, the first that leaves the cut label enough room: the bar goes only once the label is cut, the counts
    /// after the bar.
    func text(width: Int) -> String {
        let width = max(1, width)
        if progress.isFinished { return finishedText(width: width) }
        // A phase at 0% draws no bar and no percentage: one that reports its start and end only (an index built in
        // one statement) would otherwise look measured and stuck.
        let started = (progress.fraction ?? 0) > 0
        let percent = progress.fraction.map { "\(Int(($0 * 100).rounded(.down)))%" }
        let percentPart = Part(started ? percent : nil, widest: progress.fraction == nil ? 0 : 4)
        let countsPart = Part(counts, widest: counts == nil ? 0 : Self.columns(widestCounts))
        let ratePart = Part(rate, widest: Self.columns(countsBytesOnly ? "1023.9 KiB/s" : "999.9k \(unit)/s"))
        let timingPart = Part(timing, widest: Self.columns("59m59s left"))
        let amountPart = percent == nil ? (counts == nil ? bytesPart : countsPart) : percentPart
        let barLayouts: [[Part]] = [
            [bar(24, started), countsPart, percentPart, bytesPart, ratePart, timingPart],
            [bar(16, started), countsPart, percentPart, ratePart, timingPart],
            [bar(10, started), countsPart, percentPart, timingPart],
        ]
        let plainLayouts: [[Part]] = [[countsPart, percentPart, timingPart], [amountPart, timingPart], [amountPart]]
        let labelColumns = Self.columns(label)
        let passes = [(barLayouts, labelColumns), (barLayouts + plainLayouts, min(labelColumns, Self.shortestLabel))]
        for (layouts, shortest) in passes {
            for layout in layouts {
                let shown = layout.filter { $0.widest > 0 }
                let reserved = shown.reduce(0) { $0 + $1.widest } + 2 * max(0, shown.count - 1)
                let room = width - reserved - 2
                guard room >= shortest else { continue }
                let tail = shown.compactMap(\.text).joined(separator: "  ")
                let text =
                    tail.isEmpty ? Self.fitted(label, width: width) : Self.fitted(label, width: room) + "  " + tail
                if Self.columns(text) <= width { return text }
            }
        }
        return Self.fitted(label, width: width)
    }

    /// The line a finished phase leaves on screen: what it did and how long it took, the label cut first when the
    /// width is short.
    private func finishedText(width: Int) -> String {
        var parts = ["\(NumberText.grouped(progress.completed)) \(unit)"]
        if let bytes = progress.bytes, bytes > 0 { parts.append(NumberText.bytes(bytes)) }
        if let pages = progress.pages, pages > 0 {
            parts.append("\(NumberText.grouped(pages)) page\(pages == 1 ? "" : "s")")
        }
        let time = NumberText.seconds(elapsed)
        let tails = ["\(parts.joined(separator: ", ")) in \(time)", "\(parts[0]) in \(time)", time]
        for tail in tails {
            let room = width - Self.columns(tail) - 2
            // Counts say more than the label's end on a finished line: the label is cut shorter than on a live one.
            if room >= min(Self.columns(label), Self.shortestFinishedLabel) {
                return Self.fitted(label, width: room) + ": " + tail
            }
        }
        return Self.fitted(label + ": " + time, width: width)
    }

    /// The fewest columns a cut label keeps, so that it still says what the line is about.
    private static let shortestLabel = 12
    private static let shortestFinishedLabel = 10

    /// One part of a live line: its text now (`nil` while it has nothing to say) and the most columns it may take
    /// during the phase (0 when it never appears).
    private struct Part {
        let text: String?
        let widest: Int

        init(_ text: String?, widest: Int) {
            self.text = text
            self.widest = text.map { max(widest, ProgressLine.columns($0)) } ?? widest
        }
    }

    private var unit: String { progress.phase == .indexing ? "rows" : "posts" }

    /// Whether the phase counts bytes only so far: a download of the whole list in one answer, whose posts are
    /// known once it is in.
    private var countsBytesOnly: Bool {
        progress.phase == .downloading && progress.completed == 0 && progress.total == nil && progress.bytes != nil
    }

    /// Done (and total) posts or rows; `nil` while only bytes are counted.
    private var counts: String? {
        if countsBytesOnly { return nil }
        let done = NumberText.grouped(progress.completed)
        guard let total = progress.total else { return "\(done) \(unit)" }
        return "\(done)/\(NumberText.grouped(total)) \(unit)"
    }

    /// The counts at their widest: the total twice, or a count of up to six digits when there is no total.
    private var widestCounts: String {
        guard let total = progress.total else {
            return "\(NumberText.grouped(max(progress.completed, 999_999))) \(unit)"
        }
        return "\(NumberText.grouped(total))/\(NumberText.grouped(total)) \(unit)"
    }

    private var bytesPart: Part {
        guard progress.bytes != nil else { return Part(nil, widest: 0) }
        // The bytes so far at their widest ("1023.9 KiB"), and the total as it is.
        let widest =
            Self.columns("1023.9 KiB") + (progress.totalBytes.map { Self.columns(NumberText.bytes($0)) + 1 } ?? 0)
        guard let bytes = progress.bytes, bytes > 0 else { return Part(nil, widest: widest) }
        guard let totalBytes = progress.totalBytes else { return Part(NumberText.bytes(bytes), widest: widest) }
        return Part("\(NumberText.bytes(bytes))/\(NumberText.bytes(totalBytes))", widest: widest)
    }

    private var seconds: Double {
        let (whole, attoseconds) = elapsed.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// Posts (or rows) a second since the phase began, or bytes while only bytes are counted, once it has run long
    /// enough to say.
    private var rate: String? {
        guard seconds >= 0.5 else { return nil }
        if countsBytesOnly {
            guard let bytes = progress.bytes, bytes > 0 else { return nil }
            return "\(NumberText.bytes(Int(Double(bytes) / seconds)))/s"
        }
        guard progress.completed > 0 else { return nil }
        return "\(NumberText.rate(Double(progress.completed) / seconds)) \(unit)/s"
    }

    /// The time left at the pace so far, once the phase is far enough along to estimate it; before that, from its
    /// first second, the time it has run (so that a line whose numbers stand still still shows the work goes on).
    private var timing: String? {
        guard seconds >= 1 else { return nil }
        guard let fraction = progress.fraction, fraction >= 0.01, fraction < 1 else {
            return NumberText.timeLeft(seconds.rounded(.down))
        }
        return "\(NumberText.timeLeft(seconds * (1 - fraction) / fraction)) left"
    }

    /// A bar `width` columns wide between its brackets; reserved but not drawn until the phase has `started`.
    private func bar(_ width: Int, _ started: Bool) -> Part {
        guard let fraction = progress.fraction else { return Part(nil, widest: 0) }
        guard started else { return Part(nil, widest: width + 2) }
        let filled = Int((fraction * Double(width)).rounded(.down))
        return Part(
            "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]",
            widest: width + 2
        )
    }

    /// `text`, cut to `width` columns with an ellipsis when it is longer.
    static func fitted(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        let room = width > 3 ? width - 3 : width
        var cut = ""
        var used = 0
        for character in text {
            used += columns(character)
            if used > room { break }
            cut.append(character)
        }
        return width > 3 ? cut + "..." : cut
    }

    /// How many columns a terminal gives `text`, counted so that it never takes more: an ASCII character one,
    /// any other two (wide CJK characters and emoji take two; most others one, so the line may end early).
    static func columns(_ text: String) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    private static func columns(_ character: Character) -> Int {
        character.isASCII ? 1 : 2
    }
}
