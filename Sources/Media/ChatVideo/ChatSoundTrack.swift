import Glibc

/// The chat video's whole sound track as one premixed mono PCM buffer: a key click per typed character, a swoosh per
/// message sent, a ding per message received, normalised to the loudness the video platforms play at.
///
/// The three sounds are synthesised once per process and added at their events' sample offsets, so mixing a video's
/// hundreds of events costs next to nothing, where an ffmpeg `adelay`+`amix` graph per event costs as much CPU as
/// the video encode. The events come from the deterministic timeline and the noise from a fixed-seed generator, so the
/// same chat always gives the same samples.
///
/// TikTok, Reels and YouTube play everything at about −14 LUFS: a quieter track sounds faint next to the videos
/// around it. How loud a chat's track is depends on how densely its sounds fall (the typing speed, the style, the
/// lengths of the messages), so the mix is measured (``LoudnessMeter``, as ffmpeg's `ebur128` measures it), turned up
/// or down to −14 LUFS, and its peaks held under ``peakCeiling`` by a ``PeakLimiter``; the limiter takes a little
/// loudness off with the peaks, so the gain is measured again and corrected, a few passes over a buffer of a few
/// million samples. The sounds are shaped to be loud for their peaks, so the limiter has little to take off.
public struct ChatSoundTrack: Sendable {
    /// 48 kHz, the rate AAC and MP4 players expect, and a multiple of our frame rates (30 and 60), so a tick is a
    /// whole number of samples.
    public static let sampleRate = 48_000
    /// The integrated loudness the track is normalised to, in LUFS: what TikTok, Reels and YouTube normalise to.
    public static let targetLoudness = -14.0
    /// The most a sample may reach, in dB of full scale. True peaks must stay under −1 dBTP; the AAC encoder's output
    /// overshoots its input by up to about 1 dB on these sounds, so the PCM stops 2 dB short of that.
    public static let peakCeiling = -3.0

    /// Signed 16-bit mono PCM, `totalTicks / fps` seconds long.
    public let samples: [Int16]

    /// Mixes `events` into a track of `totalTicks` ticks of `1 / fps` seconds and normalises its loudness. A sound that
    /// runs past the end is cut there; overlapping sounds add up, and the limiter holds their sum under the ceiling.
    public init(events: [ChatSoundEvent], totalTicks: Int, fps: Int) {
        precondition(fps > 0, "a frame rate is a positive number of ticks per second")
        let count = max(0, totalTicks) * Self.sampleRate / fps
        var mix = [Float](repeating: 0, count: count)
        for event in events {
            let start = event.tick * Self.sampleRate / fps
            guard start >= 0, start < count else { continue }
            let sound = Self.sound(of: event.kind)
            for index in start..<min(count, start + sound.count) {
                mix[index] += sound[index - start]
            }
        }
        self.samples = Self.normalised(mix).map { Int16(($0 * Float(Int16.max)).rounded()) }
    }

    /// `mix` turned to ``targetLoudness`` with its peaks under ``peakCeiling``. Silence, or a track shorter than one
    /// 400 ms block of the measure, is returned as it is, held under the ceiling.
    static func normalised(_ mix: [Float]) -> [Float] {
        let limiter = PeakLimiter(ceiling: Float(decibels: peakCeiling), sampleRate: Float(sampleRate))
        guard let measured = LoudnessMeter.integratedLoudness(of: mix) else {
            var track = mix
            limiter.apply(to: &track)
            return track
        }
        var gain = targetLoudness - measured
        var previous: (gain: Double, loudness: Double)?
        var track = mix
        // Each pass corrects the gain by what the limiter took off, by the secant through the last two passes: a dB of
        // gain buys a dB of loudness until the limiter engages, less after. Chats come within 0.05 LU in two to four.
        for _ in 0..<6 {
            let amplitude = Float(decibels: gain)
            track = mix.map { $0 * amplitude }
            limiter.apply(to: &track)
            guard let loudness = LoudnessMeter.integratedLoudness(of: track), abs(loudness - targetLoudness) > 0.05 else { break }
            var slope = 1.0
            if let previous, abs(gain - previous.gain) > 0.01 {
                slope = min(1, max(0.2, (loudness - previous.loudness) / (gain - previous.gain)))
            }
            previous = (gain, loudness)
            gain += (targetLoudness - loudness) / slope
        }
        return track
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

    private static func sound(of kind: ChatSoundEvent.Kind) -> [Float] {
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

/// The three sounds, made from sines and seeded noise. Each is scaled to a fixed peak, in proportion to the others, and
/// each ends on silence, so cutting it off makes no pop. Their shapes keep their peaks close to their loudness (a tone
/// under a flat envelope rather than a spike of noise), so that the track reaches −14 LUFS with little limiting.
private enum Synthesis {
    static let sampleRate = Float(ChatSoundTrack.sampleRate)

    /// A key tap: 25 ms of a tone falling from 4 to 2.8 kHz with a little low-passed noise for its edge, full for its
    /// first 7 ms then decaying with an 8 ms time constant. Its pitch sits where the ear (and so the loudness measure)
    /// is most sensitive: the same peak is 2 to 4 dB louder than at 1.5 kHz.
    static func keyClick() -> [Float] {
        var noise = SeededNoise(seed: 0x4B45_5943_4C49_434B)
        var smoothed: Float = 0
        var phase: Float = 0
        let wave = (0..<samples(seconds: 0.025)).map { index in
            let time = seconds(index)
            phase += 2 * Float.pi * (2800 + 1200 * exp(-time / 0.005)) / sampleRate
            smoothed += 0.5 * (noise.next() - smoothed)
            let envelope = min(1, time / 0.0005) * (time < 0.007 ? 1 : exp(-(time - 0.007) / 0.008))
            return envelope * (sin(phase) + 0.6 * smoothed)
        }
        return scaled(fadedOut(wave, seconds: 0.003), peak: 0.18)
    }

    /// A "sent" swoosh: 250 ms of noise through a band-pass whose centre rises from 300 Hz to 3.5 kHz, swelling to
    /// its loudest at about two thirds of its length, then fading to nothing.
    static func swoosh() -> [Float] {
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
        return scaled(wave, peak: 0.28)
    }

    /// A "received" ding: 350 ms of a bell at E6 with an inharmonic partial at 2.76 times its frequency, as struck
    /// bells have, the partial dying faster than the fundamental.
    static func ding() -> [Float] {
        let fundamental: Float = 1318.5
        let partial = fundamental * 2.76
        let wave = (0..<samples(seconds: 0.35)).map { index in
            let time = seconds(index)
            let attack = min(1, time / 0.003)
            let fundamentalTone = sin(2 * Float.pi * fundamental * time) * exp(-time / 0.11)
            let partialTone = 0.4 * sin(2 * Float.pi * partial * time) * exp(-time / 0.045)
            return attack * (fundamentalTone + partialTone)
        }
        return scaled(fadedOut(wave, seconds: 0.03), peak: 0.24)
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

    /// Scales `wave` so its loudest sample is `peak` of full scale.
    private static func scaled(_ wave: [Float], peak: Float) -> [Float] {
        let loudest = wave.reduce(0) { max($0, abs($1)) }
        let scale = loudest > 0 ? peak / loudest : 0
        return wave.map { $0 * scale }
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

extension Float {
    /// The amplitude of `decibels` of full scale.
    fileprivate init(decibels: Double) {
        self = Float(pow(10, decibels / 20))
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.littleEndian) { self.append(contentsOf: $0) }
    }
}
