import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

@Suite struct ChatTimelineTests {
    @Test func theFrameCountIsKnownUpFrontAndThePicturesCoverEveryTick() {
        let input = Conversations.short()
        let timeline = ChatTimeline(input)
        #expect(
            timeline.totalTicks
                == ChatPacing(input.settings).totalTicks(of: input.conversation, sides: input.settings.sides(of: input.conversation.characters)))
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
        #expect(
            timeline.totalTicks
                == ChatPacing(input.settings).totalTicks(of: input.conversation, sides: input.settings.sides(of: input.conversation.characters)))
        #expect(zip(timeline.segments, timeline.segments.dropFirst()).allSatisfy { $0.state != $1.state })
        let pacing = ChatPacing(input.settings)
        for (index, message) in input.conversation.messages.enumerated().dropFirst() {
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
                #expect(indicatorTicks == pacing.indicatorTicks + pacing.typingTicks(of: message, side: .left))
            }
        }
        let typedBySender = input.conversation.messages.dropFirst().filter { $0.character == "me" }.reduce(0) { $0 + $1.text.count }
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
        // The opening (the first message in place) is not a hold, and the last hold runs into the end.
        let holds = timeline.segments.filter { $0.state.activity == .idle && $0.state.sent > 0 }.dropFirst().dropLast()
        #expect(holds.count == 1)
        #expect(holds.allSatisfy { $0.length == 24 })
    }

    @Test func soundsFallOnTheClockOfThePictures() {
        let input = Conversations.short()
        let timeline = ChatTimeline(input)
        let clicks = timeline.sounds.filter { $0.kind == .keyClick }
        // The first message is in place from the first frame: no typing, no sound of its own.
        #expect(clicks.count == input.conversation.messages.dropFirst().reduce(0) { $0 + $1.text.count })
        #expect(timeline.sounds.filter { $0.kind != .keyClick }.map(\.kind) == [.send, .receive])
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

    /// The first frame is what a platform shows as the video's thumbnail: the conversation's first message, in place,
    /// never an empty chat.
    @Test(arguments: [ChatTypingStyle.bubble, .field], [true, false])
    func theFirstFrameShowsTheFirstMessage(style: ChatTypingStyle, indicator: Bool) {
        let input = Conversations.short {
            $0.typingStyle = style
            $0.typingIndicator = indicator
        }
        let timeline = ChatTimeline(input)
        #expect(timeline.state(at: 0) == ChatFrameState(sent: 1, activity: .idle))
        // It stays for the lead-in, a hold and the owner's pause before typing the second (they see no "…" of their
        // own), and then the second is typed.
        let pacing = ChatPacing(input.settings)
        #expect(timeline.segments[0].length == pacing.leadInTicks + pacing.holdTicks + pacing.indicatorTicks)
        let typed: ChatActivity = style == .field ? .composing(message: 1, characters: 1) : .typing(message: 1, characters: 1)
        #expect(timeline.segments[1].state == ChatFrameState(sent: 1, activity: typed))
    }

    /// A 300-character message from the other side: their "…" and typing stop at the speed's limit (2–3 s) instead of
    /// holding the video still for 16 s; the phone owner's own 300 characters still type one by one.
    @Test(arguments: [ChatTypingSpeed.slow, .normal, .fast], [ChatTypingStyle.bubble, .field])
    func theOtherSidesTypingStopsAtItsLimit(speed: ChatTypingSpeed, style: ChatTypingStyle) {
        let long = String(String(repeating: "so what happened was ", count: 15).prefix(300))
        let input = Conversations.with(messages: [("me", "hey"), ("sam", long), ("me", long), ("sam", "ok")]) {
            $0.typingSpeed = speed
            $0.typingStyle = style
        }
        let timeline = ChatTimeline(input)
        let pacing = ChatPacing(input.settings)
        #expect((2...3).contains(speed.replyLimitSeconds))
        #expect(pacing.replyLimitTicks == Int(speed.replyLimitSeconds * Double(pacing.fps)))
        // Each message after the first ends with its sound; its turn ("…" and typing) starts when the hold before it ends.
        let sends = timeline.sounds.filter { $0.kind != .keyClick }.map(\.tick)
        #expect(sends.count == 3)
        func turn(_ message: Int) -> Int {
            let start = message == 1 ? timeline.segments[0].length : sends[message - 2] + pacing.holdTicks
            return sends[message - 1] - start
        }
        #expect(turn(1) <= pacing.replyLimitTicks, "the other side took \(Double(turn(1)) / Double(pacing.fps)) s over 300 characters")
        #expect(turn(1) >= pacing.replyLimitTicks - pacing.ticksPerCharacter)
        #expect(turn(3) == pacing.indicatorTicks + 2 * pacing.ticksPerCharacter, "a short reply keeps its pace")
        #expect(turn(2) == pacing.indicatorTicks + 300 * pacing.ticksPerCharacter, "the phone's owner types at the speed's pace")
        // Cut short, the other side's bubble still ends on the whole message, in steps at the usual pace.
        let typed = timeline.segments.compactMap { segment -> Int? in
            guard case .typing(message: 1, let characters) = segment.state.activity else { return nil }
            return characters
        }
        if style == .bubble {
            #expect(typed.last == 300)
            #expect(zip(typed, typed.dropFirst()).allSatisfy { $0 < $1 })
        } else {
            #expect(typed.isEmpty)
        }
        #expect(timeline.totalTicks == pacing.totalTicks(of: input.conversation, sides: input.settings.sides(of: input.conversation.characters)))
    }
}
