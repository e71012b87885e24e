import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

@Suite struct ChatTimelineTests {
    @Test func theFrameCountIsKnownUpFrontAndThePicturesCoverEveryTick() {
        let input = Conversations.short()
        let timeline = ChatTimeline(input)
        #expect(timeline.totalTicks == ChatPacing(input.settings).totalTicks(of: input.conversation.messages))
        var tick = 0
        for segment in timeline.segments {
            #expect(segment.start == tick)
            #expect(segment.length > 0)
            tick = segment.end
        }
        #expect(tick == timeline.totalTicks)
        // Consecutive pictures differ: each is drawn and encoded once.
        #expect(zip(timeline.segments, timeline.segments.dropFirst()).allSatisfy { $0.state != $1.state })
    }

    /// Typing in the input field takes the same ticks as typing in the bubble, so the frame count is known up front the
    /// same way: the sender's words go to the field after a pause without a "…" of their own (a click per character),
    /// and the other side's "…" lasts while they type, with no typing of theirs shown.
    @Test func typingInTheFieldKeepsTheLengthAndShowsTheOtherSidesIndicatorMeanwhile() {
        let bubble = ChatTimeline(Conversations.short())
        let input = Conversations.short { $0.typingStyle = .field }
        let timeline = ChatTimeline(input)
        #expect(timeline.totalTicks == bubble.totalTicks)
        #expect(timeline.totalTicks == ChatPacing(input.settings).totalTicks(of: input.conversation.messages))
        #expect(zip(timeline.segments, timeline.segments.dropFirst()).allSatisfy { $0.state != $1.state })
        let pacing = ChatPacing(input.settings)
        for (index, message) in input.conversation.messages.enumerated() {
            let states = timeline.segments.filter { $0.state.sent == index }
            let composed = states.compactMap { segment -> Int? in
                guard case .composing(message: index, let characters) = segment.state.activity else { return nil }
                return characters
            }
            let indicatorTicks = states.filter {
                if case .indicator(message: index, _) = $0.state.activity { true } else { false }
            }.reduce(0) { $0 + $1.length }
            #expect(!states.contains { if case .typing = $0.state.activity { true } else { false } }, "message \(index) typed in its bubble")
            // Then it arrives over a quarter of a second, one picture a tick, before its hold ends.
            let arrival = states.compactMap { segment -> Int? in
                guard case .arriving(message: index, let step, let steps) = segment.state.activity, segment.length == 1 else { return nil }
                return steps == min(pacing.fps / 4, pacing.holdTicks - 1) ? step : nil
            }
            #expect(arrival == Array(0..<min(pacing.fps / 4, pacing.holdTicks - 1)), "message \(index) arrives in \(arrival)")
            if message.character == "me" {
                #expect(composed == Array(1...message.text.count))
                #expect(indicatorTicks == 0)
            } else {
                #expect(composed.isEmpty)
                #expect(indicatorTicks == pacing.indicatorTicks + message.text.count * pacing.ticksPerCharacter)
            }
        }
        let typedBySender = input.conversation.messages.filter { $0.character == "me" }.reduce(0) { $0 + $1.text.count }
        #expect(timeline.sounds.filter { $0.kind == .keyClick }.count == typedBySender)
    }

    @Test func emojiWithSkinTonesAndZWJSequencesTypeOutClusterByCluster() {
        let input = Conversations.short()
        let timeline = ChatTimeline(input)
        let text = input.conversation.messages[1].text
        let typed = timeline.segments.compactMap { segment -> Int? in
            guard case .typing(message: 1, let characters) = segment.state.activity else { return nil }
            return characters
        }
        // "Yes! 👍🏽👨‍👩‍👧" is 7 clusters (12 Unicode scalars): one step each, never half an emoji.
        #expect(text.unicodeScalars.count == 12)
        #expect(typed == Array(1...7))
        #expect(String(Array(text).prefix(6)) == "Yes! 👍🏽")
    }

    @Test func theTypingPaceFollowsTheSpeedAndThePauseIsTenTimesIt() {
        let input = Conversations.short {
            $0.typingSpeed = .slow
            $0.fps = 30
        }
        let timeline = ChatTimeline(input)
        let typing = timeline.segments.filter { if case .typing = $0.state.activity { true } else { false } }
        // 0.08 s a character at 30 fps is 2.4 ticks, rounded to 2.
        #expect(typing.allSatisfy { $0.length == 2 })
        let holds = timeline.segments.filter { $0.state.activity == .idle && $0.state.sent > 0 }.dropLast()
        #expect(holds.allSatisfy { $0.length == 24 })
    }

    @Test func soundsFallOnTheClockOfThePictures() {
        let input = Conversations.short()
        let timeline = ChatTimeline(input)
        let clicks = timeline.sounds.filter { $0.kind == .keyClick }
        #expect(clicks.count == input.conversation.messages.reduce(0) { $0 + $1.text.count })
        #expect(timeline.sounds.filter { $0.kind != .keyClick }.map(\.kind) == [.receive, .send, .receive])
        // Each click starts the picture with one more character typed.
        for click in clicks {
            guard case .typing = timeline.state(at: click.tick).activity else {
                Issue.record("a key click at tick \(click.tick) with nothing typed")
                return
            }
        }
        let send = timeline.sounds.first { $0.kind == .send }!
        #expect(timeline.state(at: send.tick) == ChatFrameState(sent: 2, activity: .idle))
    }

    @Test func withoutTheIndicatorTypingStartsAtOnce() {
        let input = Conversations.short { $0.typingIndicator = false }
        let timeline = ChatTimeline(input)
        #expect(!timeline.segments.contains { if case .indicator = $0.state.activity { true } else { false } })
    }
}
