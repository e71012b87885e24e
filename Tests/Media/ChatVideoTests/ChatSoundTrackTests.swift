import ChatVideo
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

    @Test("a key click starts on its event's sample and is over 15 ms later")
    func keyClickStartsAtItsTick() throws {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 30, kind: .keyClick)], totalTicks: 60, fps: 60)
        let start = 30 * 48_000 / 60
        let clickLength = 48_000 * 15 / 1000
        #expect(track.samples[..<start].allSatisfy { $0 == 0 })
        #expect(track.samples[start] != 0)
        let firstMillisecond = track.samples[start..<start + 48]
        #expect(firstMillisecond.filter { $0 != 0 }.count > 40)
        #expect(firstMillisecond.map { abs(Int($0)) }.max() ?? 0 > 1000)
        #expect(track.samples[(start + clickLength)...].allSatisfy { $0 == 0 })
    }

    @Test("each sound is audible and peaks well under clipping", arguments: [ChatSoundEvent.Kind.keyClick, .send, .receive])
    func soundsStayUnderClipping(kind: ChatSoundEvent.Kind) {
        let track = ChatSoundTrack(events: [ChatSoundEvent(tick: 6, kind: kind)], totalTicks: 60, fps: 60)
        let peak = track.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3000)
        #expect(peak < Int(Int16.max) / 2)
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
