/// How many bytes each read of a ``ShortReadFile`` returns, so the stream reader's windows end at varying places.
public enum ReadSchedule: Sendable {
    /// One byte per read: every value is cut at every byte once.
    case bytewise
    /// Pseudo-random sizes from a seed: mostly 1 to 8 bytes, often up to 64, sometimes up to `maximum`.
    case random(seed: UInt64, maximum: Int)
    /// As much as the reader's buffer holds.
    case whole
}
