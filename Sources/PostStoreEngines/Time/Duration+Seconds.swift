extension Duration {
    /// The duration in seconds for people, to the millisecond: `0.075 s`, `7 s`, `3600 s`.
    package var secondsDescription: String {
        decimalSeconds + " s"
    }

    /// The duration in seconds as a decimal number, to the millisecond: `0.075`, `7`, `3600`.
    package var decimalSeconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        var fraction = String(String(1000 + abs(milliseconds % 1000)).dropFirst())
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000)\(fraction.isEmpty ? "" : "." + fraction)"
    }
}
