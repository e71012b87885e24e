/// The format Kiln keeps a namespace's data in, in Redis: the names of its keys, the fields of its hashes, the entries
/// of its streams and sets, and what its scripts take and answer, as one number the namespace records
/// (docs/compatibility.md, "The Redis data"). A release reads a range of formats and writes one of them; a process
/// refuses to start against data in a format it cannot read, rather than misread it.
public enum DataFormat {
    /// The format this release records in a namespace that has none yet.
    public static let written = 2
    /// The formats this release reads. A release that brings a new format reads its predecessor's too, and relies on
    /// the new one only once the namespace records it (``DataFormatError``).
    public static let readable: ClosedRange<Int> = 1...2
    /// The first format in which every job, and every key that points at one, is listed in its owner's index
    /// (`KeySpace.owned`), so erasure reads the index instead of walking the namespace. Releases of format 1 write
    /// jobs the index does not list; `kiln data-format --record 2` lists them before it records the format.
    public static let ownersIndexed = 2
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
