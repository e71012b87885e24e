/// What a camera writes into a photo, or after it, for the tests that check it never reaches a document or a published
/// page.
public enum CameraMetadata {
    /// `jpeg` with an APP1 (EXIF) segment holding `text` right after its start-of-image marker.
    public static func insertingEXIF(_ text: String, into jpeg: [UInt8]) -> [UInt8] {
        inserting(marker: 0xE1, payload: Array("Exif\0\0\(text)".utf8), into: jpeg)
    }

    /// `jpeg` with an APP2 multi-picture index holding `text`, and `text` after its end marker, where a phone appends a
    /// motion photo's video or an HDR gain map.
    public static func appendingPicture(_ text: String, to jpeg: [UInt8]) -> [UInt8] {
        inserting(marker: 0xE2, payload: Array("MPF\0\(text)".utf8), into: jpeg) + Array(text.utf8)
    }

    private static func inserting(marker: UInt8, payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return Array(jpeg.prefix(2)) + [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}
