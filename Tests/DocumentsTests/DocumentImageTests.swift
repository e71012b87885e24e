import Documents
import Drawing
import Foundation
import KilnCore
import RenderingFixtures
import Testing

/// Pictures as documents take them in: the size from the header, what cameras write about them removed, and sizes that
/// would take gigabytes to decode refused.
@Suite struct DocumentImageTests {
    static let secret = "GPS 48.8584 N 2.2945 E, iPhone of Aria"

    /// A JPEG made by ffmpeg, with an EXIF (APP1) segment holding ``secret`` right after its start marker.
    static func jpegWithEXIF() async throws -> [UInt8] {
        let jpeg = Array(try await Command.run([
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=160x100", "-frames:v", "1", "-c:v", "mjpeg", "-f", "mjpeg", "-",
        ]))
        return EXIFSegment.inserting(secret, into: jpeg)
    }

    /// A PNG with a `tEXt` chunk holding ``secret`` after its header chunk.
    static func pngWithText() throws -> [UInt8] {
        let surface = CairoSurface(width: 40, height: 30, opaque: true)
        surface.draw { $0.fill(PixelRect(x: 0, y: 0, width: 40, height: 30), ChatColor(0x336699)) }
        let png = try PNGEncoder.encode(surface)
        let type = Array("tEXt".utf8)
        let data = Array("Comment\0\(secret)".utf8)
        let chunk = bigEndian(UInt32(data.count)) + type + data + bigEndian(ParsedPNG.crc32(type + data))
        // Signature (8) and IHDR (4 + 4 + 13 + 4) first.
        return Array(png[0..<33]) + chunk + png[33...]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    @Test func aJPEGLosesItsEXIFAndStillDecodes() async throws {
        let original = try await Self.jpegWithEXIF()
        #expect(String(decoding: original, as: UTF8.self).contains(Self.secret))
        let image = try DocumentImage(baseName: "cover", data: original)
        #expect(image.name == "cover.jpg")
        #expect((image.width, image.height) == (160, 100))
        #expect(!String(decoding: image.data, as: UTF8.self).contains(Self.secret))
        let directory = try TemporaryDirectory()
        let path = (directory.path as NSString).appendingPathComponent("cover.jpg")
        try Data(image.data).write(to: URL(fileURLWithPath: path))
        let probe = String(decoding: try await Command.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path]), as: UTF8.self)
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "160,100")
    }

    @Test func aPNGLosesItsTextChunksAndStillDecodes() throws {
        let original = try Self.pngWithText()
        #expect(CairoSurface(png: original) != nil)
        let image = try DocumentImage(baseName: "image-1", data: original)
        #expect(!String(decoding: image.data, as: UTF8.self).contains(Self.secret))
        let decoded = try #require(CairoSurface(png: image.data))
        #expect((decoded.width, decoded.height) == (40, 30))
    }

    @Test func aPictureOfTooManyPixelsIsRefusedBeforeItIsDecoded() throws {
        // A header that declares 32767×32767: a few kilobytes that would decode to 4 GB.
        var png = try Self.pngWithText()
        png.replaceSubrange(16..<24, with: Self.bigEndian(32767) + Self.bigEndian(32767))
        #expect(throws: DocumentError.imageTooLarge("huge")) { try DocumentImage(baseName: "huge", data: png) }
    }

    @Test func bytesThatAreNoPictureAreRefused() {
        #expect(throws: DocumentError.unreadableImage("x")) { try DocumentImage(baseName: "x", data: Array("not a picture".utf8)) }
        // A JPEG's start whose segments run past the end.
        #expect(throws: DocumentError.unreadableImage("y")) { try DocumentImage(baseName: "y", data: [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10]) }
    }
}
