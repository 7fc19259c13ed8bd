extension UInt8 {
    /// This byte with an ASCII capital letter (`A`-`Z`) made lowercase, every other byte as it is: what Swift's
    /// `lowercased()` does to each byte of a string that is all ASCII.
    @inline(__always)
    var lowercasedASCII: UInt8 {
        self &- UInt8(ascii: "A") < 26 ? self | 0x20 : self
    }
}
