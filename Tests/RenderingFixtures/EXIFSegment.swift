/// What a camera writes into a photo, for the tests that check it never reaches a document or a published page.
public enum EXIFSegment {
    /// `jpeg` with an APP1 (EXIF) segment holding `text` right after its start-of-image marker.
    public static func inserting(_ text: String, into jpeg: [UInt8]) -> [UInt8] {
        let payload = Array("Exif\0\0\(text)".utf8)
        let length = payload.count + 2
        return Array(jpeg.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}
