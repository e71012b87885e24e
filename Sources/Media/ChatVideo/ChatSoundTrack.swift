import Glibc

/// The chat video's whole sound track as one premixed mono PCM buffer: a key click per typed character, a swoosh per
/// message sent, a ding per message received.
///
/// The three sounds are synthesised once per process and added at their events' sample offsets, so mixing a video's
/// hundreds of events costs next to nothing, where an ffmpeg `adelay`+`amix` graph per event costs as much CPU as
/// the video encode. The events come from the deterministic timeline and the noise from a fixed-seed generator, so the
/// same chat always gives the same samples.
public struct ChatSoundTrack: Sendable {
    /// 48 kHz, the rate AAC and MP4 players expect, and a multiple of our frame rates (30 and 60), so a tick is a
    /// whole number of samples.
    public static let sampleRate = 48_000

    /// Signed 16-bit mono PCM, `totalTicks / fps` seconds long.
    public let samples: [Int16]

    /// Mixes `events` into a track of `totalTicks` ticks of `1 / fps` seconds. A sound that runs past the end is cut
    /// there; overlapping sounds add up and are clamped to the 16-bit range.
    public init(events: [ChatSoundEvent], totalTicks: Int, fps: Int) {
        precondition(fps > 0, "a frame rate is a positive number of ticks per second")
        let count = max(0, totalTicks) * Self.sampleRate / fps
        // Int32 holds the sum of thousands of overlapping sounds; the 16-bit clamp comes once, at the end.
        var mix = [Int32](repeating: 0, count: count)
        for event in events {
            let start = event.tick * Self.sampleRate / fps
            guard start >= 0, start < count else { continue }
            let sound = Self.sound(of: event.kind)
            for index in start..<min(count, start + sound.count) {
                mix[index] += Int32(sound[index - start])
            }
        }
        self.samples = mix.map { Int16(clamping: $0) }
    }

    /// The track as a WAV file (RIFF/WAVE, PCM 16-bit little-endian, mono, 48 kHz) for `ffmpeg -i track.wav`.
    ///
    /// The format's 32-bit sizes hold about 12 hours of this track, far beyond any chat video.
    public func wavFile() -> [UInt8] {
        let dataSize = UInt32(clamping: self.samples.count * 2)
        let bytesPerSample: UInt16 = 2
        var file: [UInt8] = []
        file.reserveCapacity(44 + self.samples.count * 2)
        file.append(contentsOf: Array("RIFF".utf8))
        file.appendLittleEndian(UInt32(clamping: 36 + Int(dataSize)))
        file.append(contentsOf: Array("WAVE".utf8))
        file.append(contentsOf: Array("fmt ".utf8))
        file.appendLittleEndian(UInt32(16))  // size of the PCM format chunk that follows
        file.appendLittleEndian(UInt16(1))  // PCM
        file.appendLittleEndian(UInt16(1))  // channels
        file.appendLittleEndian(UInt32(Self.sampleRate))
        file.appendLittleEndian(UInt32(Self.sampleRate) * UInt32(bytesPerSample))  // bytes per second
        file.appendLittleEndian(bytesPerSample)  // bytes per frame of all channels
        file.appendLittleEndian(UInt16(16))  // bits per sample
        file.append(contentsOf: Array("data".utf8))
        file.appendLittleEndian(dataSize)
        self.samples.map(\.littleEndian).withUnsafeBytes { file.append(contentsOf: $0) }
        return file
    }

    private static func sound(of kind: ChatSoundEvent.Kind) -> [Int16] {
        switch kind {
        case .keyClick: Self.keyClick
        case .send: Self.send
        case .receive: Self.receive
        }
    }

    // Static lets are initialised once, lazily and thread-safely, on first use.
    private static let keyClick = Synthesis.keyClick()
    private static let send = Synthesis.swoosh()
    private static let receive = Synthesis.ding()
}

/// The three sounds, made from sines and seeded noise. Each is scaled to a fixed peak well under full scale, so a
/// click overlapping a swoosh or a ding still stays clear of clipping, and each ends on silence, so cutting it off
/// makes no pop.
private enum Synthesis {
    static let sampleRate = Float(ChatSoundTrack.sampleRate)

    /// A soft key tap: 15 ms of noise, its hiss taken off by a low-pass, decaying with a 2.5 ms time constant.
    static func keyClick() -> [Int16] {
        var noise = SeededNoise(seed: 0x4B45_5943_4C49_434B)
        var smoothed: Float = 0
        let wave = (0..<samples(seconds: 0.015)).map { index in
            smoothed += 0.5 * (noise.next() - smoothed)
            return smoothed * exp(-seconds(index) / 0.0025)
        }
        return pcm(fadedOut(wave, seconds: 0.003), peak: 0.18)
    }

    /// A "sent" swoosh: 250 ms of noise through a band-pass whose centre rises from 300 Hz to 3.5 kHz, swelling to
    /// its loudest at about two thirds of its length, then fading to nothing.
    static func swoosh() -> [Int16] {
        var noise = SeededNoise(seed: 0x5357_4F4F_5348)
        let count = samples(seconds: 0.25)
        // A Chamberlin state-variable filter: cheap, and its centre frequency can change every sample.
        var low: Float = 0
        var band: Float = 0
        let damping: Float = 0.5
        let wave = (0..<count).map { index in
            let progress = Float(index) / Float(count)
            let centre = 300 * pow(3500 / 300, progress)
            let coefficient = 2 * sin(Float.pi * centre / sampleRate)
            low += coefficient * band
            let high = noise.next() - low - damping * band
            band += coefficient * high
            let swell = sin(Float.pi * pow(progress, 1.6))
            return band * swell * swell
        }
        return pcm(wave, peak: 0.28)
    }

    /// A "received" ding: 350 ms of a bell at E6 with an inharmonic partial at 2.76 times its frequency, as struck
    /// bells have, the partial dying faster than the fundamental.
    static func ding() -> [Int16] {
        let fundamental: Float = 1318.5
        let partial = fundamental * 2.76
        let wave = (0..<samples(seconds: 0.35)).map { index in
            let time = seconds(index)
            let attack = min(1, time / 0.003)
            let fundamentalTone = sin(2 * Float.pi * fundamental * time) * exp(-time / 0.11)
            let partialTone = 0.4 * sin(2 * Float.pi * partial * time) * exp(-time / 0.045)
            return attack * (fundamentalTone + partialTone)
        }
        return pcm(fadedOut(wave, seconds: 0.03), peak: 0.32)
    }

    private static func samples(seconds: Float) -> Int {
        Int((seconds * sampleRate).rounded())
    }

    private static func seconds(_ sample: Int) -> Float {
        Float(sample) / sampleRate
    }

    /// Ramps the last `seconds` down to zero, so an exponential tail ends on silence instead of a step.
    private static func fadedOut(_ wave: [Float], seconds: Float) -> [Float] {
        let length = min(wave.count, samples(seconds: seconds))
        var wave = wave
        for offset in 0..<length {
            wave[wave.count - 1 - offset] *= Float(offset) / Float(length)
        }
        return wave
    }

    /// Scales `wave` so its loudest sample is `peak` of full scale, and rounds it to 16-bit samples.
    private static func pcm(_ wave: [Float], peak: Float) -> [Int16] {
        let loudest = wave.reduce(0) { max($0, abs($1)) }
        let scale = loudest > 0 ? peak * Float(Int16.max) / loudest : 0
        return wave.map { Int16(($0 * scale).rounded()) }
    }
}

/// White noise from a 64-bit linear congruential generator (Knuth's MMIX constants): unlike the system's random
/// numbers, the same seed gives the same noise on every run, so an export can be compared with an earlier one.
private struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    /// The next sample, uniform in [-1, 1). The high bits are used: an LCG's low bits repeat with short periods.
    mutating func next() -> Float {
        self.state = self.state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Int32(truncatingIfNeeded: self.state >> 32)) / 2_147_483_648
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.littleEndian) { self.append(contentsOf: $0) }
    }
}
