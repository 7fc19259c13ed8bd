/// A row of a results table: a measure, its baseline, and the target for their ratio.
struct ResultRow {
    let name: String
    let figure: BenchmarkRun.Figure
    let baseline: (name: String, figure: BenchmarkRun.Figure)?
    /// The ratio shown: the measure's time over the baseline's, or (for a speed-up) the other way round.
    let isSpeedUp: Bool
    let target: Double?

    init(
        _ name: String,
        _ figure: BenchmarkRun.Figure,
        vs baseline: (String, BenchmarkRun.Figure)? = nil,
        speedUp: Bool = false,
        target: Double? = nil
    ) {
        self.name = name
        self.figure = figure
        self.baseline = baseline
        self.isSpeedUp = speedUp
        self.target = target
    }

    var ratio: Double? {
        guard let baseline else { return nil }
        return isSpeedUp
            ? baseline.figure.medianSeconds / figure.medianSeconds
            : figure.medianSeconds / baseline.figure.medianSeconds
    }

    var verdict: String {
        guard let ratio, let target else { return "" }
        return (isSpeedUp ? ratio >= target : ratio <= target) ? "met" : "**missed**"
    }

    /// The row in Markdown: name, median seconds, peak memory, baseline, ratio, target and verdict.
    var line: String {
        let ratio = ratio.map { format($0, decimals: 2) + "×" } ?? ""
        let target = target.map { (isSpeedUp ? "≥ " : "≤ ") + format($0, decimals: 2) + "×" } ?? ""
        return "| \(name) | \(format(figure.medianSeconds)) | \(format(figure.maximumMegabytes, decimals: 0)) "
            + "| \(baseline?.name ?? "") | \(ratio) | \(target) | \(verdict) |"
    }
}
