/// A PNG or JPEG picture of a document, with its size read from its header (no decoding) and its metadata removed
/// (``strippingMetadata(_:format:)``): writers embed the bytes as they are, except the PDF writer, which decodes PNGs with
/// Cairo and passes JPEGs through.
public struct DocumentImage: Sendable, Equatable {
    public enum Format: String, Sendable {
        case png, jpeg

        public var mediaType: String { "image/\(rawValue)" }
        public var fileExtension: String { self == .png ? "png" : "jpg" }
    }

    /// Unique within its document and safe as a file name: "image-1.png", "cover.jpg".
    public let name: String
    public let format: Format
    public let data: [UInt8]
    public let width: Int
    public let height: Int

    /// The most pixels a picture may have: 40 million (a 48-megapixel phone photo is larger; the apps send less).
    /// Decoded, that is 160 MB; a PNG of a few megabytes could otherwise declare 32767×32767 and take 4 GB.
    public static let maxPixels = 40_000_000

    /// - Parameter baseName: the name without its extension ("cover", "image-3"); letters, digits and dashes.
    /// - Throws: ``DocumentError`` when `data` is neither a PNG nor a baseline or progressive JPEG with a size, or when
    ///   it has more than ``maxPixels`` pixels.
    public init(baseName: String, data: [UInt8]) throws {
        guard let (format, width, height) = Self.header(of: data), width > 0, height > 0 else {
            throw DocumentError.unreadableImage(baseName)
        }
        // Each side first: a PNG's may be up to 2³² − 1, and their product would overflow.
        guard width <= Self.maxPixels, height <= Self.maxPixels, width * height <= Self.maxPixels else {
            throw DocumentError.imageTooLarge(baseName)
        }
        guard let stripped = Self.strippingMetadata(data, format: format) else { throw DocumentError.unreadableImage(baseName) }
        self.name = "\(baseName).\(format.fileExtension)"
        self.format = format
        self.data = stripped
        self.width = width
        self.height = height
    }

    private static func header(of data: [UInt8]) -> (Format, Int, Int)? {
        if data.count >= 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return (.png, bigEndian(data, 16, 4), bigEndian(data, 20, 4))
        }
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        // Walk the JPEG's segments to the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC).
        var offset = 2
        while offset + 9 < data.count {
            guard data[offset] == 0xFF else { return nil }
            let marker = data[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (.jpeg, bigEndian(data, offset + 7, 2), bigEndian(data, offset + 5, 2))
            }
            offset += 2 + bigEndian(data, offset + 2, 2)
        }
        return nil
    }

    /// The `count` bytes at `offset`, read as an unsigned big-endian number (PNG and JPEG headers are big-endian).
    static func bigEndian(_ data: [UInt8], _ offset: Int, _ count: Int) -> Int {
        data[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
