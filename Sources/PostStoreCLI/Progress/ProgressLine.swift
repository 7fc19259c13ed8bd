import PostStore

/// The text of one progress line: what a phase is called, a bar, counts, a rate and the time left while it runs;
/// its counts and elapsed time once it has finished. Never wider than the width it is given.
struct ProgressLine {
    /// What the line says the phase is doing, for example "Reading posts.json".
    let label: String
    /// The phase's latest update.
    let progress: WorkProgress
    /// How long the phase has run.
    let elapsed: Duration

    /// The line, fitted into `width` columns: parts are left out, least useful first, until it fits.
    func text(width: Int) -> String {
        let width = max(1, width)
        if progress.isFinished { return Self.fitted(finishedText, width: width) }
        let counts = self.counts
        let percent = progress.fraction.map { "\(Int(($0 * 100).rounded(.down)))%" }
        // From the most to the least detail; the first that fits is drawn.
        let layouts: [[String?]] = [
            [label, bar(24), counts, percent, bytesPart, rate, timeLeft],
            [label, bar(16), counts, percent, rate, timeLeft],
            [label, bar(10), counts, percent, timeLeft],
            [label, counts, percent, timeLeft],
            [label, percent ?? counts],
            [label],
        ]
        for layout in layouts {
            let text = layout.compactMap { $0 }.joined(separator: "  ")
            if Self.columns(text) <= width { return text }
        }
        return Self.fitted(label, width: width)
    }

    /// The line a finished phase leaves on screen: what it did and how long it took.
    var finishedText: String {
        var parts = ["\(NumberText.grouped(progress.completed)) \(unit)"]
        if let bytes = progress.bytes, bytes > 0 { parts.append(NumberText.bytes(bytes)) }
        if let pages = progress.pages, pages > 0 {
            parts.append("\(NumberText.grouped(pages)) page\(pages == 1 ? "" : "s")")
        }
        return "\(label): \(parts.joined(separator: ", ")) in \(NumberText.seconds(elapsed))"
    }

    private var unit: String { progress.phase == .indexing ? "rows" : "posts" }

    private var counts: String {
        let done = NumberText.grouped(progress.completed)
        guard let total = progress.total else { return "\(done) \(unit)" }
        return "\(done)/\(NumberText.grouped(total)) \(unit)"
    }

    private var bytesPart: String? {
        guard let bytes = progress.bytes, bytes > 0 else { return nil }
        guard let totalBytes = progress.totalBytes else { return NumberText.bytes(bytes) }
        return "\(NumberText.bytes(bytes))/\(NumberText.bytes(totalBytes))"
    }

    private var seconds: Double {
        let (whole, attoseconds) = elapsed.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// Posts (or rows) a second since the phase began, once it has run long enough to say.
    private var rate: String? {
        guard seconds >= 0.5, progress.completed > 0 else { return nil }
        return "\(NumberText.rate(Double(progress.completed) / seconds)) \(unit)/s"
    }

    /// The time left at the pace so far, once the phase is far enough along to estimate it.
    private var timeLeft: String? {
        guard let fraction = progress.fraction, fraction >= 0.01, fraction < 1, seconds >= 1 else { return nil }
        let left = seconds * (1 - fraction) / fraction
        return "\(NumberText.timeLeft(left)) left"
    }

    private func bar(_ width: Int) -> String? {
        guard let fraction = progress.fraction else { return nil }
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
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
