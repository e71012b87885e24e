import ChatVideo
import Foundation
import RenderingFixtures
import Testing

@Suite("MatroskaWriter")
struct MatroskaWriterTests {
    @Test("distinct pictures on their ticks become a constant-frame-rate H.264 video of the right length")
    func constantFrameRateVideo() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path + "/out.mp4"
        // Grey levels shown from ticks 0, 5 and 9; the last picture is sent again on the last tick, so the video
        // lasts to its end.
        let pictures = [(tick: 0, luma: 40), (tick: 5, luma: 120), (tick: 9, luma: 200), (tick: 11, luma: 200)]
        try encode(pictures, arguments: ["-fps_mode", "cfr", "-r", "60", "-frames:v", "12", "-c:v", "libx264", "-pix_fmt", "yuv420p", output])

        let probe = try await Command.run([
            "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=width,height,nb_read_frames,r_frame_rate", "-of", "json", output,
        ])
        let stream = try #require(try JSONDecoder().decode(Probe.self, from: probe).streams.first)
        #expect(stream.width == 64)
        #expect(stream.height == 32)
        #expect(stream.nb_read_frames == "12")
        #expect(stream.r_frame_rate == "60/1")

        // Decoded as yuv420p, whose Y plane comes first: `-pix_fmt gray` would stretch video levels to full range.
        let frame7 = try await Command.run([
            "ffmpeg", "-v", "error", "-i", output, "-vf", "select=eq(n\\,7)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ])
        #expect(frame7.count == 64 * 32 * 3 / 2)
        #expect(abs(averageLuma(frame7.prefix(64 * 32)) - 120) < 3)
    }

    @Test("each picture keeps its tick exactly, also past a cluster's 16-bit span")
    func picturesKeepTheirTicks() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path + "/out.mp4"
        let ticks = [0, 5, 9, 32_766, 40_000, 40_001]
        let pictures = ticks.enumerated().map { (tick: $1, luma: 40 + 30 * $0) }
        // Variable frame rate: one output frame per picture, on the tick ffmpeg read for it.
        try encode(pictures, arguments: ["-fps_mode", "vfr", "-r", "60", "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p", output])

        let timeBase = try await Command.run([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", output,
        ])
        let unitsPerSecond = try #require(Int(String(decoding: timeBase, as: UTF8.self).split(separator: "/").last?.trimmed ?? ""))
        let timestamps = try await Command.run([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", output,
        ])
        let outputTicks = String(decoding: timestamps, as: UTF8.self).split(separator: "\n").compactMap { Int($0.trimmed) }
            .map { $0 * 60 / unitsPerSecond }
        #expect(outputTicks == ticks)

        let frames = try await Command.run([
            "ffmpeg", "-v", "error", "-i", output, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ])
        let lumas = stride(from: 0, to: frames.count, by: 64 * 32 * 3 / 2).map { averageLuma(frames[$0..<$0 + 64 * 32]) }
        #expect(lumas.count == pictures.count)
        for (luma, picture) in zip(lumas, pictures) {
            #expect(abs(luma - Double(picture.luma)) < 3, "picture at tick \(picture.tick)")
        }
    }

    @Test("a cluster starts with the first block and when the relative timestamp would overflow 16 bits")
    func clusterBoundaries() {
        var writer = MatroskaWriter(width: 64, height: 32, fps: 60)
        #expect(writer.framePayloadSize == 3072)
        let clusterStart: [UInt8] = [0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        // SimpleBlock ID, size 3076 as a 2-byte variable-length integer, track 1, relative time, keyframe flag.
        let first = writer.blockHeader(tick: 0, payloadSize: 3072)
        #expect(first == clusterStart + [0xE7, 0x81, 0x00] + [0xA3, 0x4C, 0x04, 0x81, 0x00, 0x00, 0x80])
        #expect(writer.blockHeader(tick: 5, payloadSize: 3072) == [0xA3, 0x4C, 0x04, 0x81, 0x00, 0x05, 0x80])
        #expect(writer.blockHeader(tick: 32_767, payloadSize: 3072) == [0xA3, 0x4C, 0x04, 0x81, 0x7F, 0xFF, 0x80])
        let next = writer.blockHeader(tick: 32_768, payloadSize: 3072)
        #expect(next == clusterStart + [0xE7, 0x82, 0x80, 0x00] + [0xA3, 0x4C, 0x04, 0x81, 0x00, 0x00, 0x80])
    }

    @Test("the header declares Matroska, one tick per timestamp unit, and an I420 track")
    func header() {
        let header = MatroskaWriter(width: 1080, height: 1920, fps: 60).header()
        #expect(header.starts(with: [0x1A, 0x45, 0xDF, 0xA3]))
        #expect(header.contains(Array("matroska".utf8)))
        // TimestampScale: 16 666 667 ns, in its 3 significant bytes.
        #expect(header.contains([0x2A, 0xD7, 0xB1, 0x83, 0xFE, 0x50, 0x2B]))
        #expect(header.contains(Array("V_UNCOMPRESSED".utf8)))
        #expect(header.contains([0x2E, 0xB5, 0x24, 0x84] + Array("I420".utf8)))
        #expect(header.contains([0xB0, 0x82, 0x04, 0x38]))  // PixelWidth 1080
        #expect(header.contains([0xBA, 0x82, 0x07, 0x80]))  // PixelHeight 1920
    }

    /// Streams flat grey 64×32 pictures on ticks of 1/60 s through a Matroska pipe into `ffmpeg -f matroska -i -` with `arguments` after it.
    private func encode(_ pictures: [(tick: Int, luma: Int)], arguments: [String]) throws {
        let (width, height) = (64, 32)
        var writer = MatroskaWriter(width: width, height: height, fps: 60)
        let encoder = try FFmpegProcess(arguments: ["-hide_banner", "-loglevel", "error", "-f", "matroska", "-i", "-"] + arguments)
        try writer.header().withUnsafeBytes { try encoder.write($0) }
        for picture in pictures {
            let frame =
                [UInt8](repeating: UInt8(picture.luma), count: width * height)
                + [UInt8](repeating: 128, count: writer.framePayloadSize - width * height)
            try writer.blockHeader(tick: picture.tick, payloadSize: frame.count).withUnsafeBytes { try encoder.write($0) }
            try frame.withUnsafeBytes { try encoder.write($0) }
        }
        _ = try encoder.finish()
    }

    private func averageLuma(_ bytes: some Collection<UInt8>) -> Double {
        Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count)
    }

    /// The part of ffprobe's JSON the test reads.
    private struct Probe: Decodable {
        struct Stream: Decodable {
            let width: Int
            let height: Int
            let nb_read_frames: String
            let r_frame_rate: String
        }

        let streams: [Stream]
    }
}

extension Substring {
    fileprivate var trimmed: String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
