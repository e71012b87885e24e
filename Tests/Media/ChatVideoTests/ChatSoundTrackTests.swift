import ChatVideo
import Foundation
import Testing

@Suite("ChatSoundTrack")
struct ChatSoundTrackTests {
    @Test("the track lasts exactly the video's ticks", arguments: [24, 30, 60])
    func lengthMatchesTheVideo(fps: Int) {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 1, kind: .send)], totalTicks: 3 * fps + 7, fps: fps)
        #expect(track.samples.count == (3 * fps + 7) * ChatSoundTrack.sampleRate / fps)
    }

    @Test("a video without events is silent")
    func silenceWithoutEvents() {
        let track = ChatSoundTrack(events: [], totalTicks: 120, fps: 60)
        #expect(track.samples.count == 96_000)
        #expect(track.samples.allSatisfy { $0 == 0 })
    }

    @Test("a key click starts on its event's sample and is over 25 ms later")
    func keyClickStartsAtItsTick() throws {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 30, kind: .keyClick)], totalTicks: 60, fps: 60)
        let start = 30 * 48_000 / 60
        let clickLength = 48_000 * 25 / 1000
        #expect(track.samples[..<start].allSatisfy { $0 == 0 })
        let firstMillisecond = track.samples[start..<start + 48]
        #expect(firstMillisecond.filter { $0 != 0 }.count > 40)
        #expect(firstMillisecond.map { abs(Int($0)) }.max() ?? 0 > 1000)
        #expect(track.samples[(start + clickLength)...].allSatisfy { $0 == 0 })
    }

    @Test("each sound is audible and peaks under the ceiling", arguments: [ChatSoundEvent.Kind.keyClick, .send, .receive])
    func soundsStayUnderTheCeiling(kind: ChatSoundEvent.Kind) {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 6, kind: kind)], totalTicks: 60, fps: 60)
        let peak = track.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3000)
        #expect(Double(peak) <= Double(Int16.max) * pow(10, ChatSoundTrack.peakCeiling / 20) + 1)
    }

    /// The meter reads what BS.1770 says a sine reads: a 997 Hz sine at −20 dBFS is −23.0 LUFS (−3.01 for a sine's
    /// mean square, +0.69 of K-weighting at 1 kHz against the −0.691 of the definition), and silence reads nothing.
    @Test("the loudness meter reads a sine as BS.1770 says")
    func loudnessOfASine() throws {
        let sine = (0..<(5 * 48_000)).map { Float(0.1 * sin(2 * Double.pi * 997 * Double($0) / 48_000)) }
        let loudness = try #require(LoudnessMeter.integratedLoudness(of: sine))
        #expect(abs(loudness - -23.0) < 0.1, "\(loudness) LUFS")
        #expect(LoudnessMeter.integratedLoudness(of: [Float](repeating: 0, count: 48_000)) == nil)
    }

    /// Typing at each speed, sparse or dense, comes out at −14 LUFS with its peaks under the ceiling (the export test
    /// measures the same through ffmpeg's `ebur128`, after AAC).
    @Test("a chat's track is normalised to −14 LUFS", arguments: [2, 3, 5])
    func normalisedLoudness(ticksPerCharacter: Int) throws {
        var events: [ChatSoundEvent] = []
        var tick = 30
        for message in 0..<6 {
            tick += 60
            for _ in 0..<30 {
                events.append(ChatSoundEvent(tick: tick, kind: .keyClick))
                tick += ticksPerCharacter
            }
            events.append(ChatSoundEvent(tick: tick, kind: message.isMultiple(of: 2) ? .send : .receive))
            tick += 10 * ticksPerCharacter
        }
        let track = ChatSoundTrack(events: events, totalTicks: tick + 60, fps: 60)
        let loudness = try #require(LoudnessMeter.integratedLoudness(of: track.samples.map { Float($0) / Float(Int16.max) }))
        #expect(abs(loudness - ChatSoundTrack.targetLoudness) < 0.2, "\(loudness) LUFS")
        let peak = track.samples.map { abs(Double($0)) / Double(Int16.max) }.max() ?? 0
        #expect(20 * log10(peak) <= ChatSoundTrack.peakCeiling + 0.01)
    }

    @Test("the send and the receive last 250 and 350 ms and end on silence")
    func soundLengths() {
        let events = [ChatSoundEvent(tick: 0, kind: .send), ChatSoundEvent(tick: 60, kind: .receive)]
        let track = ChatSoundTrack(events: events, totalTicks: 120, fps: 60)
        let sendEnd = 48_000 / 4
        let receiveEnd = 48_000 + 48_000 * 35 / 100
        #expect(track.samples[sendEnd - 4_800..<sendEnd].contains { $0 != 0 })
        #expect(track.samples[sendEnd..<48_000].allSatisfy { $0 == 0 })
        #expect(track.samples[receiveEnd - 4_800..<receiveEnd].contains { $0 != 0 })
        #expect(track.samples[receiveEnd...].allSatisfy { $0 == 0 })
    }

    @Test("a sound that runs past the end is cut there")
    func soundCutAtTheEnd() {
        let track = ChatSoundTrack(
            events: [ChatSoundEvent(tick: 59, kind: .receive), ChatSoundEvent(tick: 60, kind: .send)], totalTicks: 60, fps: 60)
        #expect(track.samples.count == 48_000)
        #expect(track.samples[47_200...].contains { $0 != 0 })
    }

    @Test("the same events give the same samples")
    func deterministic() {
        let events = (0..<20).map { ChatSoundEvent(tick: $0 * 3, kind: $0 % 7 == 6 ? .send : .keyClick) }
        let first = ChatSoundTrack(events: events, totalTicks: 90, fps: 60)
        let second = ChatSoundTrack(events: events, totalTicks: 90, fps: 60)
        #expect(first.samples == second.samples)
    }

    @Test("the WAV file has a PCM 16-bit mono 48 kHz header and the samples little-endian")
    func wavHeader() throws {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 3, kind: .keyClick)], totalTicks: 30, fps: 30)
        let file = track.wavFile()
        let dataSize = track.samples.count * 2
        #expect(file.count == 44 + dataSize)
        #expect(String(decoding: file[0..<4], as: UTF8.self) == "RIFF")
        #expect(littleEndian(file, at: 4, size: 4) == 36 + dataSize)
        #expect(String(decoding: file[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(littleEndian(file, at: 16, size: 4) == 16)
        #expect(littleEndian(file, at: 20, size: 2) == 1)  // PCM
        #expect(littleEndian(file, at: 22, size: 2) == 1)  // mono
        #expect(littleEndian(file, at: 24, size: 4) == 48_000)
        #expect(littleEndian(file, at: 28, size: 4) == 96_000)
        #expect(littleEndian(file, at: 32, size: 2) == 2)
        #expect(littleEndian(file, at: 34, size: 2) == 16)
        #expect(String(decoding: file[36..<40], as: UTF8.self) == "data")
        #expect(littleEndian(file, at: 40, size: 4) == dataSize)
        let clickStart = 3 * 48_000 / 30
        let sample = Int16(bitPattern: UInt16(littleEndian(file, at: 44 + 2 * clickStart, size: 2)))
        #expect(sample == track.samples[clickStart])
    }

    private func littleEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> Int {
        (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
