extension String {
    /// The text with every control character (C0, DEL, C1) and line or paragraph separator written as a visible
    /// escape such as `\n` or `\u{1B}`: what a source, a post or a path holds can then neither break a message's one
    /// line nor send the terminal a command (a title change, colours, a cursor move).
    var withVisibleControls: String {
        var shown = ""
        for scalar in unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .lineSeparator || category == .paragraphSeparator {
                shown += scalar.escaped(asASCII: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
