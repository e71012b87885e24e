/// A Redis stream entry's id, `<milliseconds>-<sequence>`, in the order Redis gives entries: what an event's SSE id and
/// a client's `Last-Event-ID` are, and what a follower compares to tell what it has had.
public struct StreamID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let milliseconds: UInt64
    public let sequence: UInt64

    /// Before every entry: a stream read "after" it is read from its start.
    public static let start = StreamID(milliseconds: 0, sequence: 0)

    init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// An id as Redis writes them, both parts 64-bit unsigned decimals; nil for anything else, and for the largest id,
    /// which no stream ever sent and Redis refuses to read after.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Self.decimal(parts[0]), let sequence = Self.decimal(parts[1]),
            milliseconds != .max || sequence != .max
        else { return nil }
        self.init(milliseconds: milliseconds, sequence: sequence)
    }

    private static func decimal(_ digits: Substring) -> UInt64? {
        guard digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(digits)
    }

    public var description: String { "\(milliseconds)-\(sequence)" }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence)
    }
}
