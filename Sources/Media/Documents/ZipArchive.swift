/// A zip file built in memory, as DOCX and EPUB are: entries deflated with zlib (or stored), a central directory and the
/// end record. Every entry has the same DOS timestamp (1980-01-01 00:00), so the same entries give the same bytes and a
/// retried export writes an identical file. No zip64: an archive is limited to 4 GiB − 1 and 65,535 entries.
public struct ZipArchive: Sendable {
    /// Local headers and entry data, in the order added.
    private var entries: [UInt8] = []
    private var centralDirectory: [UInt8] = []
    private var entryCount = 0

    public init() {}

    /// Appends an entry.
    /// - Parameters:
    ///   - path: the entry's name inside the archive, with `/` between folders; stored as UTF-8 (flag bit 11).
    ///   - compressed: false stores the bytes as they are (method 0), as EPUB's `mimetype` must be; an entry that
    ///     deflate would not shrink (a PNG) is stored too.
    /// - Throws: ``DocumentError/renderingFailed(_:)`` when the archive would pass zip's 32-bit limits or zlib fails.
    public mutating func add(_ path: String, _ bytes: [UInt8], compressed: Bool = true) throws {
        let name = Array(path.utf8)
        guard bytes.count <= UInt32.max, name.count <= UInt16.max, entryCount < UInt16.max else {
            throw DocumentError.renderingFailed("zip entry \(path) is past the zip format's 32-bit limits")
        }
        let deflated = compressed ? try Deflate.compress(bytes, level: 6, framing: .raw) : nil
        let (method, data): (UInt16, [UInt8]) = if let deflated, deflated.count < bytes.count { (8, deflated) } else { (0, bytes) }
        let checksum = Deflate.crc32(bytes)
        let localHeaderOffset = entries.count

        // The fields both headers share, from "version needed to extract" to the name's length.
        var shared: [UInt8] = []
        shared.appendLittleEndian(UInt16(20))  // 2.0: deflate
        shared.appendLittleEndian(UInt16(0x0800))  // names and comments are UTF-8
        shared.appendLittleEndian(method)
        shared.appendLittleEndian(UInt16(0))  // 00:00:00
        shared.appendLittleEndian(UInt16(0x21))  // 1980-01-01: day 1, month 1, year 0
        shared.appendLittleEndian(checksum)
        shared.appendLittleEndian(UInt32(data.count))
        shared.appendLittleEndian(UInt32(bytes.count))
        shared.appendLittleEndian(UInt16(name.count))

        var local: [UInt8] = []
        local.appendLittleEndian(UInt32(0x0403_4B50))
        local += shared
        local.appendLittleEndian(UInt16(0))  // no extra field: EPUB readers find "mimetype" at offset 30
        local += name

        var central: [UInt8] = []
        central.appendLittleEndian(UInt32(0x0201_4B50))
        central.appendLittleEndian(UInt16(0x0314))  // made by Unix, zip 2.0: the external attributes are Unix modes
        central += shared
        central.appendLittleEndian(UInt16(0))  // extra field length
        central.appendLittleEndian(UInt16(0))  // comment length
        central.appendLittleEndian(UInt16(0))  // disk number
        central.appendLittleEndian(UInt16(0))  // internal attributes
        central.appendLittleEndian(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
        central.appendLittleEndian(UInt32(truncatingIfNeeded: localHeaderOffset))
        central += name

        // Every offset and size the end record holds must fit in 32 bits.
        guard entries.count + local.count + data.count + centralDirectory.count + central.count <= UInt32.max else {
            throw DocumentError.renderingFailed("zip archive would pass 4 GiB at \(path)")
        }
        entries += local
        entries += data
        centralDirectory += central
        entryCount += 1
    }

    /// The archive's bytes: the entries, the central directory and the end record.
    public func finish() -> [UInt8] {
        var end: [UInt8] = []
        end.appendLittleEndian(UInt32(0x0605_4B50))
        end.appendLittleEndian(UInt16(0))  // this disk
        end.appendLittleEndian(UInt16(0))  // the disk the central directory starts on
        end.appendLittleEndian(UInt16(entryCount))  // entries on this disk
        end.appendLittleEndian(UInt16(entryCount))  // entries in all
        end.appendLittleEndian(UInt32(centralDirectory.count))
        end.appendLittleEndian(UInt32(entries.count))
        end.appendLittleEndian(UInt16(0))  // comment length
        return entries + centralDirectory + end
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        // The raw bytes of a local integer, copied before the closure returns.
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
