import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

/// Consecutive messages of one sender are grouped into a run as the apps group them, measured in the layout the
/// pictures are drawn from.
@Suite struct ChatRunTests {
    /// The group conversation, or the same messages between the owner and one friend (Ben and Cy's lines become Ana's).
    static func conversation(theme: ChatTheme, group: Bool, dark: Bool = false) -> ChatExportInput {
        var input = Conversations.group {
            $0.theme = theme
            $0.darkMode = dark
        }
        if !group {
            input.conversation.characters = Array(input.conversation.characters.prefix(2))
            input.conversation.messages = input.conversation.messages.map {
                ChatMessageLine(character: $0.character == "me" ? "me" : "ana", text: $0.text)
            }
        }
        return input
    }

    /// In a finished chat: the gaps inside a run are smaller than those between runs; a group chat names each run of a
    /// member once, at its start, and shows their picture once, beside the bubble with the tail; the tail is on the
    /// run's last bubble in iMessage and on its first in WhatsApp (whose tail is at the top); a 1:1 chat names no one.
    @Test(arguments: [ChatTheme.imessage, .whatsapp], [false, true])
    func runsOfOneSenderAreGrouped(theme: ChatTheme, group: Bool) throws {
        let input = Self.conversation(theme: theme, group: group)
        let messages = input.conversation.messages
        let renderer = ChatRenderer(input, watermark: false)
        let placements = renderer.layout(ChatFrameState(sent: messages.count, activity: .idle))
        #expect(placements.map(\.message) == Array(messages.indices))
        var inRun: [Int] = []
        var betweenRuns: [Int] = []
        for (index, placement) in placements.enumerated() {
            let first = index == 0 || messages[index - 1].character != messages[index].character
            let last = index == messages.count - 1 || messages[index + 1].character != messages[index].character
            if index > 0 {
                let gap = placement.top - placements[index - 1].bottom
                if first { betweenRuns.append(gap) } else { inRun.append(gap) }
            }
            let received = messages[index].character != "me"
            let marked = theme == .whatsapp ? first : last
            #expect(placement.showsName == (group && received && first), "message \(index) name")
            #expect(placement.showsTail == marked, "message \(index) tail")
            #expect(placement.showsAvatar == (group && received && marked), "message \(index) picture")
        }
        let tightest = try #require(betweenRuns.min())
        let widest = try #require(inRun.max())
        #expect(widest < tightest, "gaps inside runs \(inRun), between runs \(betweenRuns)")
        #expect(widest <= 3 * 3, "gaps inside runs \(inRun) pixels")
        let names = placements.filter(\.showsName).count
        #expect(names == (group ? 3 : 0), "\(names) names for the runs of Ana, Ben and Cy")
    }

    /// While the next message of a run is under way (typed in its bubble, or arriving), it takes the run's last marks
    /// from the message above it; until then that one has them.
    @Test func theRunsLastMarksMoveToTheMessageUnderWay() throws {
        let renderer = ChatRenderer(Self.conversation(theme: .imessage, group: true), watermark: false)
        let before = renderer.layout(ChatFrameState(sent: 1, activity: .idle))
        #expect(before.map(\.showsTail) == [true] && before.map(\.showsAvatar) == [true])
        let typing = renderer.layout(ChatFrameState(sent: 1, activity: .typing(message: 1, characters: 4)))
        #expect(typing.map(\.showsTail) == [false, true] && typing.map(\.showsAvatar) == [false, true])
        #expect(typing.map(\.showsName) == [true, false])
    }

    /// In the bubble style the phone's owner gets no "…" of their own: the picture of their indicator shows nothing
    /// under the sent messages.
    @Test func theOwnerHasNoTypingIndicator() {
        let input = Conversations.short()
        let renderer = ChatRenderer(input, watermark: false)
        #expect(renderer.layout(ChatFrameState(sent: 1, activity: .indicator(message: 1, phase: 3))).map(\.message) == [0])
        #expect(renderer.layout(ChatFrameState(sent: 2, activity: .indicator(message: 2, phase: 3))).map(\.message) == [0, 1, 2])
    }

    /// Expects `tops`, where something stood in successive pictures, to move up by more than `minimum` pixels in all,
    /// never down and never more than two thirds of the way in one picture.
    static func expectSmooth(_ tops: [Int], by minimum: Int, _ what: String) {
        let steps = zip(tops, tops.dropFirst()).map { $0 - $1 }
        let total = tops.first! - tops.last!
        #expect(total > minimum, "\(what): moved \(total) pixels")
        #expect(steps.allSatisfy { $0 >= 0 && Double($0) <= Double(total) * 2 / 3 }, "\(what): steps \(steps)")
    }

    /// In the bubble style the chat never jumps: when the other side's "…" appears in a full chat, and when a message
    /// being typed grows a line, the scroll moves over several pictures, eased out, no step more than two thirds of it.
    @Test func theBubbleStyleScrollsSmoothly() throws {
        var input = Conversations.short()
        input.conversation.messages = (0..<14).map {
            ChatMessageLine(character: $0 % 2 == 0 ? "sam" : "me", text: "Message number \($0 + 1), long enough to wrap onto a second line")
        }
        let renderer = ChatRenderer(input, watermark: false)
        /// Where the first message's bubble stands: it moves up as the chat scrolls.
        func top(_ state: ChatFrameState) throws -> Int { try #require(renderer.layout(state).first).top }
        func expectSmooth(_ states: [ChatFrameState], _ what: String) throws { Self.expectSmooth(try states.map(top), by: 20, what) }
        try expectSmooth(
            [ChatFrameState(sent: 12, activity: .idle)] + (0..<4).map { ChatFrameState(sent: 12, activity: .indicator(message: 12, phase: $0)) },
            "the \"…\" appearing")
        // The owner's message: its first character's bubble, then its second line.
        try expectSmooth(
            (0..<10).map { ChatFrameState(sent: 13, activity: $0 == 0 ? .idle : .typing(message: 13, characters: $0)) }, "a bubble appearing")
        let text = input.conversation.messages[13].text
        func typed(_ characters: Int) -> ChatFrameState { ChatFrameState(sent: 13, activity: .typing(message: 13, characters: characters)) }
        let wraps = try #require(try (10..<text.count).first { try top(typed($0 + 1)) < top(typed($0)) }, "the message never wraps")
        try expectSmooth((wraps...(wraps + 8)).map(typed), "a line more")
    }

    /// In the field style too, the other side's "…" appearing in a full chat scrolls it over the first steps of the
    /// wave, eased out; the wave's later cycles (whose phases count from one cycle on) stand where the scroll ended.
    @Test func theOtherSidesIndicatorScrollsInSmoothlyInTheFieldStyle() throws {
        let input = Conversations.with(
            messages: (0..<14).map { ($0 % 2 == 0 ? "sam" : "me", "Message number \($0 + 1), long enough to wrap onto a second line") }
        ) {
            $0.typingStyle = .field
        }
        let renderer = ChatRenderer(input, watermark: false)
        let timeline = ChatTimeline(input)
        let states = timeline.segments.map(\.state).filter {
            if case .indicator(message: 12, _) = $0.activity { true } else { false }
        }
        let tops = try ([ChatFrameState(sent: 12, activity: .idle)] + states).map { try #require(renderer.layout($0).first).top }
        Self.expectSmooth(tops, by: 20, "the \"…\" appearing")
        #expect(Set(tops.dropFirst(ChatTimeline.indicatorPhases)).count == 1, "the scroll still moves after the first cycle: \(tops)")
    }

    /// The send button is lit only while the field holds text: in the bubble style, where words are typed in their
    /// bubble, it stays grey (iMessage), and WhatsApp shows its microphone there instead of its green button.
    @Test(arguments: [ChatTheme.imessage, .whatsapp])
    func theSendButtonIsLitOnlyWithText(theme: ChatTheme) {
        let renderer = ChatRenderer(Conversations.short { $0.theme = theme }, watermark: false)
        renderer.render(ChatFrameState(sent: 1, activity: .typing(message: 1, characters: 3)))
        let picture = Picture(renderer)
        let lit: (UInt8, UInt8, UInt8) = theme == .imessage ? (0x0B, 0x84, 0xFE) : (0x25, 0xD3, 0x66)
        #expect(picture.bounds(rows: (picture.height * 2 / 3)..<picture.height) { ($0, $1, $2) == lit } == nil, "a lit send button")
    }

    /// WhatsApp puts the time at the end of a message's last line when it fits there: a message of two lines whose
    /// last is short is one line taller than a message of one, not two.
    @Test func whatsAppsTimeEndsTheLastLineWhenItFits() throws {
        var input = Conversations.short { $0.theme = .whatsapp }
        input.conversation.messages = [
            ChatMessageLine(character: "sam", text: "be honest"),
            ChatMessageLine(character: "me", text: "I labelled them. With my name. In capitals."),
            ChatMessageLine(character: "sam", text: "ok"),
        ]
        let renderer = ChatRenderer(input, watermark: false)
        let placements = renderer.layout(ChatFrameState(sent: 3, activity: .idle))
        let one = placements[0].bottom - placements[0].top
        let two = placements[1].bottom - placements[1].top
        let line = 17 * 1.2 * ChatThemeDetailTests.portraitScale
        #expect(Double(two - one) > line * 0.8 && Double(two - one) < line * 1.3, "one line \(one), two lines \(two) pixels high")
    }
}
