import PostStore

/// Numbers as a progress line shows them, the same in every locale: `1,000,000`, `95.1k`, `12.5 MiB`, `3 s`.
enum NumberText {
    /// An integer with a comma between each group of three digits (``Swift/Int/groupedDigits``).
    static func grouped(_ value: Int) -> String {
        value.groupedDigits
    }

    /// A rate: whole below 1,000, then thousands or millions with one decimal (`812`, `95.1k`, `1.2M`).
    static func rate(_ value: Double) -> String {
        switch value {
        case ..<1000: "\(Int(value.rounded()))"
        case ..<1_000_000: "\(oneDecimal(value / 1000))k"
        default: "\(oneDecimal(value / 1_000_000))M"
        }
    }

    /// A size in binary units with one decimal: `512 B`, `1.5 KiB`, `350.0 MiB`, `1.2 GiB`.
    static func bytes(_ value: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard value >= 1024 else { return "\(value) B" }
        var scaled = Double(value) / 1024
        var unit = 0
        while scaled >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return "\(oneDecimal(scaled)) \(units[unit])"
    }

    /// An elapsed time: tenths of a second below a minute (`0.4 s`, `26.1 s`), then minutes and seconds (`2 min 5 s`).
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        let seconds = Double(whole) + Double(attoseconds) / 1e18
        guard seconds >= 60 else { return "\(oneDecimal(seconds)) s" }
        let rounded = Int(seconds.rounded())
        return "\(rounded / 60) min \(rounded % 60) s"
    }

    /// A time left, whole seconds below a minute (`7s`), then minutes and seconds (`2m05s`).
    static func timeLeft(_ seconds: Double) -> String {
        let rounded = Int(seconds.rounded(.up))
        guard rounded >= 60 else { return "\(rounded)s" }
        let secondsPart = String(rounded % 60)
        return "\(rounded / 60)m\(secondsPart.count == 1 ? "0" : "")\(secondsPart)s"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
