import ChatTaleInputs
import ChatVideo
import Foundation
import RenderingFixtures
import Locking
import Testing

/// Whole exports through ffmpeg, checked the way a person would: ffprobe, and frames decoded back. One at a time, and
/// with x264's `ultrafast` preset (what is checked does not depend on it): each encoder takes both cores, and the
/// other suites run beside them.
@Suite(.serialized) struct ChatVideoExportTests {
    struct Stream: Decodable {
        let codec_type: String
        let codec_name: String
        let width: Int?
        let height: Int?
        let r_frame_rate: String?
        let nb_read_frames: String?
        let pix_fmt: String?
        let color_space: String?
        let duration: String?
    }

    static let preset = "ultrafast"

    struct Probe: Decodable {
        struct Format: Decodable { let duration: String }
        let streams: [Stream]
        let format: Format
    }

    static func probe(_ path: String) async throws -> Probe {
        let output = try await Command.run([
            "ffprobe", "-v", "error", "-count_frames", "-show_entries",
            "stream=codec_type,codec_name,width,height,r_frame_rate,nb_read_frames,pix_fmt,color_space,duration:format=duration", "-of", "json", path,
        ])
        return try JSONDecoder().decode(Probe.self, from: output)
    }

    @Test(arguments: [
        (ChatVideoFormat.portrait, 60, true),
        (ChatVideoFormat.square, 30, false),
        (ChatVideoFormat.landscape, 30, true),
    ])
    func anExportHasTheRightSizeFrameRateFrameCountAndDuration(format: ChatVideoFormat, fps: Int, sounds: Bool) async throws {
        let directory = try TemporaryDirectory()
        let input = Conversations.short {
            $0.format = format
            $0.fps = fps
            $0.sounds = sounds
            $0.typingSpeed = .fast
            $0.typingIndicator = false
        }
        let path = directory.path + "/chat.mp4"
        let result = try await ChatVideoExporter(input, watermark: false, preset: Self.preset).export(to: path) { _ in }
        let timeline = ChatTimeline(input)
        #expect(result.frames == timeline.totalTicks)

        let probe = try await Self.probe(path)
        let video = try #require(probe.streams.first { $0.codec_type == "video" })
        #expect(video.codec_name == "h264")
        #expect(video.width == format.size.width)
        #expect(video.height == format.size.height)
        #expect(video.r_frame_rate == "\(fps)/1")
        #expect(video.pix_fmt == "yuv420p")
        #expect(video.color_space == "bt709")
        #expect(video.nb_read_frames == String(timeline.totalTicks))
        let duration = try #require(video.duration.flatMap(Double.init))
        #expect(abs(duration - timeline.durationSeconds) < 0.5 / Double(fps), "video lasts \(duration) s, not \(timeline.durationSeconds)")
        let audio = probe.streams.first { $0.codec_type == "audio" }
        #expect((audio?.codec_name == "aac") == sounds)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    /// The test chat exported at 1:1 and 30 fps at `speed` in `style`, as `directory`'s `chat.mp4`.
    static func exportChat(speed: ChatTypingSpeed, style: ChatTypingStyle, into directory: TemporaryDirectory) async throws -> String {
        let input = Conversations.with(messages: chat) {
            $0.format = .square
            $0.fps = 30
            $0.typingSpeed = speed
            $0.typingStyle = style
        }
        let path = directory.path + "/chat.mp4"
        _ = try await ChatVideoExporter(input, watermark: false, preset: preset).export(to: path) { _ in }
        return path
    }

    /// The sound track is what docs/chat-video.md says: AAC-LC, 48 kHz mono, at most 128 kb/s (FFmpeg's encoder spends
    /// fewer bits on the quiet between the sounds, and never more than that), sparse or dense.
    @Test(arguments: [(ChatTypingSpeed.slow, ChatTypingStyle.field), (.normal, .bubble), (.fast, .bubble)])
    func theSoundTrackIsAACAtFortyEightKilohertzMonoAndAtMost128Kbps(speed: ChatTypingSpeed, style: ChatTypingStyle) async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.exportChat(speed: speed, style: style, into: directory)
        let output = try await Command.run([
            "ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name,profile,sample_rate,channels,bit_rate", "-of",
            "default=noprint_wrappers=1", path,
        ])
        let fields = Dictionary(
            String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(fields["codec_name"] == "aac")
        #expect(fields["profile"] == "LC")
        #expect(fields["sample_rate"] == "48000")
        #expect(fields["channels"] == "1")
        let bitRate = try #require(fields["bit_rate"].flatMap(Int.init))
        print("sound track at \(speed), \(style): \(bitRate / 1000) kb/s")
        #expect(bitRate <= ChatVideoExporter.audioBitRate)
        #expect(bitRate > ChatVideoExporter.audioBitRate / 4, "\(bitRate) b/s: the sounds are there")
    }

    /// The sound plays at the loudness TikTok, Reels and YouTube normalise to: −14 ± 1 LUFS integrated with true peaks
    /// under −1 dBTP, as ffmpeg's `ebur128` measures the MP4 (after AAC, which moves both a little), whether the sounds
    /// are sparse (slow typing, the other side's typing unheard in the field) or dense.
    @Test(arguments: [(ChatTypingSpeed.slow, ChatTypingStyle.field), (.normal, .bubble), (.fast, .bubble)])
    func theSoundIsAtMinus14LUFSWithTruePeaksUnderMinus1dBTP(speed: ChatTypingSpeed, style: ChatTypingStyle) async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.exportChat(speed: speed, style: style, into: directory)
        let (loudness, truePeak) = try await Self.loudness(of: path)
        print("sound track at \(speed), \(style): \(loudness) LUFS, true peak \(truePeak) dBTP")
        #expect(abs(loudness - -14) <= 1, "\(loudness) LUFS")
        #expect(truePeak < -1, "true peak \(truePeak) dBTP")
    }

    static let chat = [
        ("sam", "you up?"), ("me", "yeah what's going on"), ("sam", "I think someone ate my leftovers again"),
        ("me", "it wasn't me I swear"), ("sam", "there's a fork in your sink"), ("me", "ok it was me"),
    ]

    /// The integrated loudness (LUFS) and the true peak (dBTP) of `path`'s sound, as ffmpeg's `ebur128` measures them.
    static func loudness(of path: String) async throws -> (integrated: Double, truePeak: Double) {
        let output = try await Command.run([
            "ffmpeg", "-v", "error", "-i", path, "-af", "ebur128=peak=true:metadata=1,ametadata=mode=print:file=-", "-f", "null", "-",
        ])
        // Each audio frame's metadata holds the running figures; the last frame's are the whole track's.
        var integrated: Double?
        var truePeak = 0.0
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            switch parts[0] {
            case "lavfi.r128.I": integrated = value
            case "lavfi.r128.true_peak": truePeak = max(truePeak, value)
            default: break
            }
        }
        return (try #require(integrated), 20 * log10(truePeak))
    }

    @Test func aVariableFrameRateExportHasOneFramePerPictureAndLastsToTheFrame() async throws {
        let directory = try TemporaryDirectory()
        let input = Conversations.short {
            $0.frameRate = .variable
            $0.typingSpeed = .fast
            $0.format = .square
        }
        let path = directory.path + "/chat.mp4"
        let result = try await ChatVideoExporter(input, watermark: false, preset: Self.preset).export(to: path) { _ in }
        let probe = try await Self.probe(path)
        let video = try #require(probe.streams.first { $0.codec_type == "video" })
        // Each picture once, plus the last one again on the last tick.
        #expect(video.nb_read_frames == String(result.pictures + 1))
        let duration = try #require(video.duration.flatMap(Double.init))
        #expect(abs(duration - result.durationSeconds) < 0.5 / 60)
    }

    /// What is encoded is what the timeline says: frames decoded at chosen ticks match the renderer's own picture.
    @Test func framesDecodedAtChosenTicksMatchTheRenderersPicture() async throws {
        let directory = try TemporaryDirectory()
        let input = Conversations.short {
            $0.format = .square
            $0.fps = 30
            $0.sounds = false
        }
        let path = directory.path + "/chat.mp4"
        _ = try await ChatVideoExporter(input, watermark: true, preset: Self.preset).export(to: path) { _ in }
        let timeline = ChatTimeline(input)
        let renderer = ChatRenderer(input, watermark: true)
        let (width, height) = input.settings.format.size
        // Mid-indicator, mid-typing of the emoji message, just after a send, and the last frame.
        let emojiTyping = timeline.segments.first { $0.state.activity == .typing(message: 1, characters: 7) }!.start
        let ticks = [timeline.fps / 2 + 5, emojiTyping, timeline.sounds.first { $0.kind == .send }!.tick + 1, timeline.totalTicks - 1]
        for tick in ticks {
            let decoded = try await Command.run([
                "ffmpeg", "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(tick)),scale=in_color_matrix=bt709:in_range=tv",
                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ])
            try #require(decoded.count == width * height * 3, "no frame \(tick)")
            renderer.renderFromScratch(timeline.state(at: tick))
            let difference = Picture(width: width, height: height, rgb: Array(decoded)).meanDifference(from: Picture(renderer))
            #expect(difference < 3, "frame \(tick) differs by \(difference) on average")
        }
    }

    @Test func cancellingStopsTheEncoderAndLeavesNoFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/chat.mp4"
        let exporter = ChatVideoExporter(Conversations.short { $0.typingSpeed = .slow }, watermark: false, preset: Self.preset)
        // The first progress holds the export (on its render thread) until the task is cancelled, so the cancellation
        // comes mid-export however late this test gets to it.
        let progressReports = Locked(0)
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await exporter.export(to: path) { _ in
                let isFirst = progressReports.withLock { reports in
                    reports += 1
                    return reports == 1
                }
                if isFirst { cancelled.wait() }
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while progressReports.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(progressReports.withLock { $0 } > 0, "the export reported no progress")
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
