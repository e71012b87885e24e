import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

/// Pictures as documents take them in: the size from the header, what cameras write about them removed, and sizes that
/// would take gigabytes to decode refused.
@Suite struct DocumentImageTests {
    static let secret = "GPS 48.8584 N 2.2945 E, iPhone of Aria"

    /// A JPEG made by ffmpeg, with an EXIF (APP1) segment holding ``secret`` right after its start marker.
    static func jpegWithEXIF() async throws -> [UInt8] {
        let jpeg = Array(
            try await Command.run([
                "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=160x100", "-frames:v", "1", "-c:v", "mjpeg", "-f", "mjpeg", "-",
            ]))
        return CameraMetadata.insertingEXIF(secret, into: jpeg)
    }

    /// A PNG with a chunk of `type` holding ``secret`` after its header chunk.
    static func pngWithText(in type: String = "tEXt") throws -> [UInt8] {
        let surface = CairoSurface(width: 40, height: 30, opaque: true)
        surface.draw { $0.fill(PixelRect(x: 0, y: 0, width: 40, height: 30), RGBColor(0x336699)) }
        let png = try PNGEncoder.encode(surface)
        let type = Array(type.utf8)
        let data = Array("Comment\0\(secret)".utf8)
        let chunk = bigEndian(UInt32(data.count)) + type + data + bigEndian(ParsedPNG.crc32(type + data))
        // Signature (8) and IHDR (4 + 4 + 13 + 4) first.
        return Array(png[0..<33]) + chunk + png[33...]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    @Test func aJPEGIsReadWithoutDecodingIt() async throws {
        let image = try DocumentImage(baseName: "cover", data: try await Self.jpegWithEXIF())
        #expect(image.name == "cover.jpg")
        #expect(image.format == .jpeg)
        #expect((image.width, image.height) == (160, 100))
    }

    /// What the camera wrote in it and what the phone appended after it go; baseline and progressive (several scans,
    /// tables between them), with and without restart markers, the copy decodes to exactly the original's pixels.
    @Test(arguments: [["-optimize"], ["-progressive"], ["-progressive", "-restart", "1"]])
    func aJPEGLosesItsMetadataAndKeepsEveryPixel(layout: [String]) async throws {
        let directory = try TemporaryDirectory()
        let source = (directory.path as NSString).appendingPathComponent("source.jpg")
        let stripped = (directory.path as NSString).appendingPathComponent("stripped.jpg")
        _ = try await Command.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=160x100", "-frames:v", "1", "-y", source])
        let original = CameraMetadata.appendingPicture(
            Self.secret, to: CameraMetadata.insertingEXIF(Self.secret, into: Array(try await Command.run(["jpegtran"] + layout + [source]))))
        let image = try DocumentImage(baseName: "cover", data: original)
        #expect(String(decoding: original, as: UTF8.self).contains(Self.secret))
        #expect(!String(decoding: image.data, as: UTF8.self).contains(Self.secret))
        try Data(image.data).write(to: URL(fileURLWithPath: stripped))
        let expected = try await Command.run(["djpeg", "-ppm", source])
        #expect(try await Command.run(["djpeg", "-ppm", stripped]) == expected)
    }

    /// Text, and a content-credentials manifest (which can name who made the picture): only the chunks that draw it stay.
    @Test(arguments: ["tEXt", "caBX"])
    func aPNGLosesItsTextChunksAndStillDecodes(chunk: String) throws {
        let original = try Self.pngWithText(in: chunk)
        #expect(CairoSurface(png: original) != nil)
        let image = try DocumentImage(baseName: "image-1", data: original)
        #expect(!String(decoding: image.data, as: UTF8.self).contains(Self.secret))
        let decoded = try #require(CairoSurface(png: image.data))
        #expect((decoded.width, decoded.height) == (40, 30))
    }

    /// A header that declares 32767×32767: a few kilobytes that would decode to 4 GB; and the largest sides a PNG can
    /// declare, whose product does not fit in 64 bits.
    @Test(arguments: [UInt32(32767), UInt32.max])
    func aPictureOfTooManyPixelsIsRefusedBeforeItIsDecoded(side: UInt32) throws {
        var png = try Self.pngWithText()
        png.replaceSubrange(16..<24, with: Self.bigEndian(side) + Self.bigEndian(side))
        #expect(throws: DocumentError.imageTooLarge("huge")) { try DocumentImage(baseName: "huge", data: png) }
    }

    @Test func bytesThatAreNoPictureAreRefused() {
        #expect(throws: DocumentError.unreadableImage("x")) { try DocumentImage(baseName: "x", data: Array("not a picture".utf8)) }
        // A JPEG's start whose segments run past the end.
        #expect(throws: DocumentError.unreadableImage("y")) {
            try DocumentImage(baseName: "y", data: [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10])
        }
    }
}
