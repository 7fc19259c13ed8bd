/// A row of a results table: a measure, what it is compared with, the target for their ratio, and in a run with a
/// baseline build, the baseline's figure for the same measure.
struct ResultRow {
    let name: String
    let figure: BenchmarkRun.Figure
    let comparison: (name: String, figure: BenchmarkRun.Figure)?
    /// The ratio shown: the measure's time over the comparison's, or (for a speed-up) the other way round.
    let isSpeedUp: Bool
    let target: Double?
    /// The baseline build's two cells; nil in a run without a baseline, whose rows end as they always have.
    var besideBaseline: BaselineCell?

    init(
        _ name: String,
        _ figure: BenchmarkRun.Figure,
        vs comparison: (String, BenchmarkRun.Figure)? = nil,
        speedUp: Bool = false,
        target: Double? = nil
    ) {
        self.name = name
        self.figure = figure
        self.comparison = comparison
        self.isSpeedUp = speedUp
        self.target = target
    }

    var ratio: Double? {
        guard let comparison else { return nil }
        return isSpeedUp
            ? comparison.figure.medianSeconds / figure.medianSeconds
            : figure.medianSeconds / comparison.figure.medianSeconds
    }

    var verdict: String {
        guard let ratio, let target else { return "" }
        return (isSpeedUp ? ratio >= target : ratio <= target) ? "met" : "**missed**"
    }

    /// The row in Markdown: name, median seconds, peak memory, comparison, ratio, target and verdict, then the
    /// baseline's median seconds and this build's over it when the run has a baseline.
    var line: String {
        let ratio = ratio.map { format($0, decimals: 2) + "×" } ?? ""
        let target = target.map { (isSpeedUp ? "≥ " : "≤ ") + format($0, decimals: 2) + "×" } ?? ""
        return "| \(name) | \(format(figure.medianSeconds)) | \(format(figure.maximumMegabytes, decimals: 0)) "
            + "| \(comparison?.name ?? "") | \(ratio) | \(target) | \(verdict) |"
            + (besideBaseline?.cells(beside: figure.medianSeconds, decimals: 3) ?? "")
    }
}

/// What a row shows in the baseline build's two columns: the baseline's figure and this build's over it.
enum BaselineCell {
    /// The baseline build measured the same thing: its median (seconds, or the table's unit).
    case measured(Double)
    /// The baseline's harness or `poststore` lacks the measure: "—" in both cells.
    case lacking
    /// The measure does not depend on the build (a peer, a `psql` anchor): both cells empty.
    case notApplicable

    /// The baseline's figure, or ``lacking`` when there is none.
    init(_ value: Double?) {
        self = value.map { .measured($0) } ?? .lacking
    }

    /// The two cells that follow a row's own, each ending in `|`.
    ///
    /// - Parameters:
    ///   - value: This build's figure, in the baseline's unit.
    ///   - decimals: The decimals of the baseline's figure (the ratio has two).
    func cells(beside value: Double, decimals: Int) -> String {
        switch self {
        case .measured(let baseline):
            return " \(format(baseline, decimals: decimals)) | \(format(value / baseline, decimals: 2))× |"
        case .lacking:
            return " — | — |"
        case .notApplicable:
            return "  |  |"
        }
    }

    /// The header of the two columns and their alignment row's cells, for a table whose figures are in `unit`.
    static func header(unit: String) -> (names: String, alignment: String) {
        (" baseline \(unit) | this / baseline |", "---:|---:|")
    }
}
