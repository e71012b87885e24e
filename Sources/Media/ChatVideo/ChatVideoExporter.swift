import BlockingWork
public import ChatTaleInputs
import Drawing
import Foundation
import Locking

/// Renders a conversation into an H.264 + AAC MP4: each distinct picture of the timeline drawn once, converted to
/// I420 (only the rows that changed), and written once with its timestamp into a Matroska stream that `ffmpeg`
/// encodes — repeating frames itself for a constant frame rate, or keeping each as long as it lasts for a variable
/// one. The premixed sound track goes in as a WAV file.
///
/// Why the `ffmpeg` program and not libavcodec in-process (docs/chat-video.md): the encoder runs in a process of its
/// own, so a crash or a runaway encode cannot take the worker down, a cancellation is a `SIGKILL`, and its memory is
/// measured apart; the worker binary does not link Debian's GPL build of libavcodec; and the command line is stable
/// across FFmpeg versions where the C API is not. It costs more CPU than encoding in-process (docs/chat-video.md says how
/// much), which the targets allow.
public final class ChatVideoExporter: Sendable {
    public let input: ChatExportInput
    public let watermark: Bool
    /// x264's speed/size trade-off (`veryfast` by default; its CPU per frame is in docs/chat-video.md).
    public let preset: String
    public let ffmpeg: String
    private let state = Locked<(cancelled: Bool, encoder: FFmpegProcess?)>((false, nil))

    public init(_ input: ChatExportInput, watermark: Bool, preset: String = "veryfast", ffmpeg: String = "ffmpeg") {
        self.input = input
        self.watermark = watermark
        self.preset = preset
        self.ffmpeg = ffmpeg
    }

    /// What one export made and what it cost.
    public struct Result: Sendable {
        public let frames: Int
        public let durationSeconds: Double
        /// Pictures drawn and sent to the encoder.
        public let pictures: Int
        public let encoderPeakMemoryBytes: Int
        public let encoderCPUSeconds: Double

        public init(frames: Int, durationSeconds: Double, pictures: Int, encoderPeakMemoryBytes: Int, encoderCPUSeconds: Double) {
            self.frames = frames
            self.durationSeconds = durationSeconds
            self.pictures = pictures
            self.encoderPeakMemoryBytes = encoderPeakMemoryBytes
            self.encoderCPUSeconds = encoderCPUSeconds
        }
    }

    /// Writes the MP4 to `path`, reporting the fraction done; blocks the calling thread until done (see
    /// ``export(to:progress:)`` for async callers). The file appears whole or not at all: it is written beside
    /// `path` and renamed when the encoder has finished.
    public func exportBlocking(to path: String, progress: (Double) -> Void) throws -> Result {
        let timeline = ChatTimeline(input)
        let partial = path + ".partial"
        let soundPath = path + ".wav"
        defer {
            try? FileManager.default.removeItem(atPath: partial)
            try? FileManager.default.removeItem(atPath: soundPath)
        }
        if input.settings.sounds {
            let track = ChatSoundTrack(events: timeline.sounds, totalTicks: timeline.totalTicks, fps: timeline.fps)
            guard FileManager.default.createFile(atPath: soundPath, contents: Data(track.wavFile())) else {
                throw ChatVideoError.io("cannot write the sound track to \(soundPath)")
            }
        }
        let encoder = try FFmpegProcess(
            arguments: arguments(timeline: timeline, sound: input.settings.sounds ? soundPath : nil, output: partial), executable: ffmpeg)
        let cancelledEarly = state.withLock { state in
            state.encoder = encoder
            return state.cancelled
        }
        defer { state.withLock { $0.encoder = nil } }
        if cancelledEarly { encoder.kill() }

        let pictures: Int
        let usage: FFmpegProcess.Usage
        do {
            pictures = try send(timeline, to: encoder, progress: progress)
            usage = try encoder.finish()
        } catch {
            encoder.kill()
            _ = try? encoder.finish()
            if state.withLock({ $0.cancelled }) { throw CancellationError() }
            throw error
        }
        guard rename(partial, path) == 0 else { throw ChatVideoError.io("cannot move the video into place at \(path): errno \(errno)") }
        return Result(
            frames: timeline.totalTicks, durationSeconds: timeline.durationSeconds, pictures: pictures,
            encoderPeakMemoryBytes: usage.peakMemoryBytes, encoderCPUSeconds: usage.cpuSeconds)
    }

    /// Draws each distinct picture once and writes it, timestamped, to the encoder; returns how many it wrote.
    private func send(_ timeline: ChatTimeline, to encoder: FFmpegProcess, progress: (Double) -> Void) throws -> Int {
        let renderer = ChatRenderer(input, watermark: watermark)
        let frame = I420Frame(width: renderer.width, height: renderer.height)
        var matroska = MatroskaWriter(width: renderer.width, height: renderer.height, fps: timeline.fps)
        try matroska.header().withUnsafeBytes { try encoder.write($0) }
        func write(tick: Int) throws {
            try matroska.blockHeader(tick: tick, payloadSize: matroska.framePayloadSize).withUnsafeBytes { try encoder.write($0) }
            try encoder.write(UnsafeRawBufferPointer(frame.bytes))
        }
        var reported = 0.0
        for segment in timeline.segments {
            if state.withLock({ $0.cancelled }) { throw CancellationError() }
            frame.convert(from: renderer.pixels, stride: renderer.stride, rows: renderer.render(segment.state))
            try write(tick: segment.start)
            let done = Double(segment.end) / Double(timeline.totalTicks)
            if done - reported >= 0.02 {
                reported = done
                progress(done)
            }
        }
        // The last picture once more on the last tick, so the video lasts to its end at either frame rate.
        if let last = timeline.segments.last, last.length > 1 { try write(tick: timeline.totalTicks - 1) }
        return timeline.segments.count
    }

    /// Stops an export under way: the encoder is killed and ``exportBlocking(to:progress:)`` throws
    /// `CancellationError`.
    public func cancel() {
        let encoder = state.withLock { state in
            state.cancelled = true
            return state.encoder
        }
        encoder?.kill()
    }

    /// ``exportBlocking(to:progress:)`` on a thread of its own, so an export never holds one of the few threads
    /// Swift's concurrency runs on; cancelling the task cancels the export. `progress` is called on that thread.
    public func export(to path: String, progress: @escaping @Sendable (Double) -> Void) async throws -> Result {
        try await BlockingExecutor.rendering.run(onCancel: cancel) { try self.exportBlocking(to: path, progress: progress) }
    }

    /// The H.264 encoder's settings: libx264 at `preset`, CRF 20, a keyframe every 4 s, tagged BT.709 limited range.
    /// Two threads on two cores, a lookahead of 5 frames instead of veryfast's 10, and the lookahead on the encoding
    /// threads rather than a thread of its own with its own frames queued (`sync-lookahead=0`): at 1080×1920 each frame
    /// x264 holds costs about 10 MB, and this holds fewer, for the same CPU time and a file no bigger
    /// (docs/chat-video.md has the encoder's memory and the plan per export).
    public static func videoEncoderArguments(preset: String, fps: Int) -> [String] {
        [
            "-c:v", "libx264", "-preset", preset, "-crf", "20", "-threads", "2", "-x264-params", "rc-lookahead=5:sync-lookahead=0",
            "-pix_fmt", "yuv420p", "-g", String(fps * 4),
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
        ]
    }

    /// The sound track's ceiling in bits per second: FFmpeg's AAC encoder spends less on the quiet between the sounds,
    /// so a chat's track averages about a third of it to seven tenths, the denser its sounds the more
    /// (docs/chat-video.md).
    public static let audioBitRate = 128_000

    /// The `ffmpeg` command: timestamped pictures in, H.264 (+ AAC) MP4 out, tagged BT.709 and ready to stream.
    func arguments(timeline: ChatTimeline, sound: String?, output: String) -> [String] {
        let fps = String(timeline.fps)
        // A short input queue: each queued picture is 3 MB.
        var arguments = ["-hide_banner", "-loglevel", "error", "-thread_queue_size", "2", "-f", "matroska", "-i", "-"]
        if let sound { arguments += ["-i", sound] }
        arguments += ["-map", "0:v"]
        if sound != nil { arguments += ["-map", "1:a"] }
        switch input.settings.frameRate {
        case .constant:
            // Every tick becomes a frame. The fps filter places each picture on its own tick (`-fps_mode cfr` alone
            // shows every picture after the first one frame early), and without the count ffmpeg adds one past the end.
            arguments += ["-vf", "fps=\(fps)", "-fps_mode", "cfr", "-r", fps, "-frames:v", String(timeline.totalTicks)]
        case .variable:
            // The output time base must be 1/fps: left to the input's, frames closer than 1/25 s are dropped. No
            // B-frames, so every frame keeps its exact duration.
            arguments += ["-fps_mode", "vfr", "-r", fps, "-bf", "0"]
        }
        arguments += Self.videoEncoderArguments(preset: preset, fps: timeline.fps)
        if sound != nil { arguments += ["-c:a", "aac", "-aac_coder", "fast", "-b:a", String(Self.audioBitRate)] }
        arguments += ["-movflags", "+faststart", "-f", "mp4", "-y", output]
        return arguments
    }
}

public enum ChatVideoError: Error, CustomStringConvertible {
    case io(String)

    public var description: String {
        switch self {
        case .io(let message): message
        }
    }
}
