import ArgumentParser
import ChatTaleInputs
import ChatVideo
import Foundation

/// `kiln-dev bench video`: ChatTale's reference export (20 messages of about 40 characters, normal speed, 1080×1920,
/// `veryfast`) through Kiln's pipeline at a constant and a variable frame rate, and through the naive pipeline the
/// seed's `VideoExportService` amounts to — every frame drawn from nothing and piped raw to the encoder — in the same
/// run. Prints each one's wall time as a multiple of real time, the encoder's CPU and memory, and the speed-up.
struct VideoBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video", abstract: "Chat video export against a naive pipeline; prints figures.")

    @Option(help: "Frames per second: 30 or 60.") var fps = 60
    @Option(help: "x264 preset.") var preset = "veryfast"
    @Flag(help: "Skip the naive pipeline (it takes the longest).") var skipNaive = false
    @Option(help: "Where the videos are written (and left, to be looked at).") var directory = ".kiln/bench-video"

    /// The reference conversation: twenty messages of about forty characters, two people texting.
    static let lines = [
        "Hey, are you still coming to the party?", "Yes! Just finishing up at work right now",
        "Great, everyone is asking about you lol", "Haha really? Who is there already then?",
        "Mia, Jordan, the twins and Sam's cousin", "Wait, Sam's cousin? The one from Paris?",
        "Yes that one 😂 he brought a whole cake", "Okay I'm definitely coming then, save me",
        "No promises, the cake is going fast 🍰", "I'm leaving now, 15 minutes tops, I swear",
        "You said that last time and took an hour", "That was the bus! Today I'm driving 🚗",
        "Fine. Bring ice on your way, we ran out", "How much ice are we talking about here?",
        "Two bags? Maybe three, it's really hot", "Got it. Anything else while I'm there?",
        "Candles! Jordan's birthday is tomorrow", "Wait WHAT. Nobody told me it's today",
        "It's a surprise, that's the whole point", "Okay okay, ice and candles. On my way 🏃",
    ]

    static func reference(_ settings: ChatExportSettings) -> ChatExportInput {
        let characters = [
            ChatCharacter(id: "me", name: "Me", color: "#0A84FF", side: .right, avatar: "😎"),
            ChatCharacter(id: "alex", name: "Alex", color: "#34C759", side: .left, avatar: "🦊"),
        ]
        let messages = lines.enumerated().map { ChatMessageLine(character: $0.offset % 2 == 0 ? "alex" : "me", text: $0.element) }
        return ChatExportInput(conversation: ChatConversation(characters: characters, messages: messages), settings: settings)
    }

    func run() throws {
        guard fps == 30 || fps == 60 else { throw ValidationError("--fps must be 30 or 60") }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var settings = ChatExportSettings()
        settings.fps = fps
        let constant = Self.reference(settings)
        settings.frameRate = .variable
        let variable = Self.reference(settings)
        let timeline = ChatTimeline(constant)
        let characters = constant.conversation.messages.reduce(0) { $0 + $1.text.count }
        print(String(format: "This process before any export: %.0f MB resident", Double(Self.peakMemoryBytes) / 1_000_000))
        print(
            "Reference export: \(Self.lines.count) messages, \(characters) characters, \(String(format: "%.2f", timeline.durationSeconds)) s, "
                + "\(timeline.totalTicks) frames at \(fps) fps, \(timeline.segments.count) distinct pictures, 1080×1920, \(preset)")

        let kiln = try measure("Kiln, constant frame rate", timeline) {
            try ChatVideoExporter(constant, watermark: false, preset: preset).exportBlocking(to: "\(directory)/kiln-cfr.mp4") { _ in }
        }
        _ = try measure("Kiln, variable frame rate", timeline) {
            try ChatVideoExporter(variable, watermark: false, preset: preset).exportBlocking(to: "\(directory)/kiln-vfr.mp4") { _ in }
        }
        _ = try measure("Encoder alone: as many blank frames, no rendering", timeline) {
            try Self.encodeBlankFrames(like: timeline, preset: preset)
        }
        guard !skipNaive else { return }
        let naive = try measure("Naive: every frame drawn and piped raw", timeline) {
            try NaiveChatVideoExport(constant, preset: preset).run(to: "\(directory)/naive-cfr.mp4")
        }
        print(String(format: "Kiln's constant-frame-rate export is %.2f× faster than the naive pipeline", naive / kiln))
    }

    /// Runs one export, prints its figures, and returns its wall time in seconds.
    private func measure(_ name: String, _ timeline: ChatTimeline, _ export: () throws -> ChatVideoExporter.Result) throws -> Double {
        let start = ContinuousClock.now
        let cpuBefore = ProcessCPU.seconds(pid: getpid())
        let result = try export()
        let wall = (ContinuousClock.now - start).seconds
        let ownCPU = ProcessCPU.seconds(pid: getpid()) - cpuBefore
        print(
            String(
                format:
                    "%@: %.2f s wall, %.2f× real time; %d frames from %d pictures; encoder %.1f CPU-s and %.0f MB peak; renderer %.1f CPU-s, this process %.0f MB peak",
                name, wall, timeline.durationSeconds / wall, result.frames, result.pictures, result.encoderCPUSeconds,
                Double(result.encoderPeakMemoryBytes) / 1_000_000, ownCPU, Double(Self.peakMemoryBytes) / 1_000_000))
        return wall
    }

    /// The ceiling on this machine: the encoder with the exports' settings, fed frames it makes itself (one white
    /// picture, the cheapest content there is) — no rendering, no pipe.
    private static func encodeBlankFrames(like timeline: ChatTimeline, preset: String) throws -> ChatVideoExporter.Result {
        let encoder = try FFmpegProcess(
            arguments: [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=white:s=1080x1920:r=\(timeline.fps)",
                "-frames:v", String(timeline.totalTicks),
            ] + ChatVideoExporter.videoEncoderArguments(preset: preset, fps: timeline.fps) + ["-f", "null", "-"])
        let usage = try encoder.finish()
        return ChatVideoExporter.Result(
            frames: timeline.totalTicks, durationSeconds: timeline.durationSeconds, pictures: 1,
            encoderPeakMemoryBytes: usage.peakMemoryBytes, encoderCPUSeconds: usage.cpuSeconds)
    }

    /// This process's peak resident memory so far.
    private static var peakMemoryBytes: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}

/// What the seed's `VideoExportService` does, on Linux: every frame of the video drawn from nothing (the same
/// renderer, without its caches) and handed to the encoder raw, BGRA, for ffmpeg to convert. The encoder's settings
/// are Kiln's, so the two differ in the pipeline only.
struct NaiveChatVideoExport {
    let input: ChatExportInput
    let preset: String

    init(_ input: ChatExportInput, preset: String) {
        self.input = input
        self.preset = preset
    }

    func run(to path: String) throws -> ChatVideoExporter.Result {
        let timeline = ChatTimeline(input)
        let renderer = ChatRenderer(input, watermark: false)
        let (width, height) = input.settings.format.size
        let encoder = try FFmpegProcess(
            arguments: [
                "-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-r", String(timeline.fps),
                "-i", "-",
            ] + ChatVideoExporter.videoEncoderArguments(preset: preset, fps: timeline.fps) + ["-movflags", "+faststart", "-y", path])
        for tick in 0..<timeline.totalTicks {
            renderer.renderFromScratch(timeline.state(at: tick))
            try encoder.write(UnsafeRawBufferPointer(start: renderer.pixels, count: renderer.stride * height))
        }
        let usage = try encoder.finish()
        return ChatVideoExporter.Result(
            frames: timeline.totalTicks, durationSeconds: timeline.durationSeconds, pictures: timeline.totalTicks,
            encoderPeakMemoryBytes: usage.peakMemoryBytes, encoderCPUSeconds: usage.cpuSeconds)
    }
}
