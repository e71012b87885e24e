/// The format Kiln keeps a namespace's data in, in Redis: the names of its keys, the fields of its hashes, the entries
/// of its streams and sets, and what its scripts take and answer, as one number the namespace records
/// (docs/compatibility.md, "The Redis data"). A release reads a range of formats and writes one of them; a process
/// refuses to start against data in a format it cannot read, rather than misread it.
public enum DataFormat {
    /// The format this release writes, and records in a namespace that has none yet.
    public static let written = 1
    /// The formats this release reads. A release that brings a new format reads its predecessor's too, and writes the
    /// new one only once the namespace records it (``DataFormatError``).
    public static let readable: ClosedRange<Int> = 1...1
}

/// A namespace whose recorded format this release cannot read: the process stops before it touches the data.
public struct DataFormatError: Error, CustomStringConvertible {
    /// What the namespace records.
    public let recorded: String

    public var description: String {
        "Redis holds this namespace's data in format \(recorded), and this release of Kiln reads formats "
            + "\(DataFormat.readable.lowerBound) to \(DataFormat.readable.upperBound): it stops here rather than misread "
            + "it. Run a release that reads format \(recorded) (docs/compatibility.md)."
    }
}
