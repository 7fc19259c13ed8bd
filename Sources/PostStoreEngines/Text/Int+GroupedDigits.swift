extension Int {
    /// The number for people, the same in every locale: its digits in groups of three between commas,
    /// `1,000,000`, `-12,345`. The progress lines of the command line and the pages of `poststore serve` show
    /// counts so.
    package var groupedDigits: String {
        let digits = String(magnitude)
        var result = self < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
