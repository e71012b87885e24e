import CPangoCairo
import ChatTaleInputs
import ChatVideo
import Drawing
import RenderingFixtures
import Testing

/// iMessage's own details, checked in the rendered pixels (light, 9:16): the heading over the conversation, the receipt
/// under the owner's latest message, links and their cards, and long words broken as iOS breaks them.
@Suite struct ChatIMessageDetailTests {
    static let scale = ChatThemeDetailTests.portraitScale
    static let grey = (UInt8(0x8E), UInt8(0x8E), UInt8(0x93))
    static let received = (UInt8(0xE9), UInt8(0xE9), UInt8(0xEB))

    /// Above the first message, small grey text centred on the frame: "iMessage" over "Today 9:41".
    @Test func theHeadingStandsOverTheFirstMessage() throws {
        let renderer = ChatRenderer(Conversations.short(), watermark: false)
        let state = ChatFrameState(sent: 1, activity: .idle)
        renderer.render(state)
        let picture = Picture(renderer)
        let first = try #require(renderer.layout(state).first)
        let header = Int(108 * Self.scale)
        let heading = try #require(picture.bounds(rows: header..<first.top) { ($0, $1, $2) == Self.grey }, "no heading over the first message")
        #expect(heading.minX > picture.width / 3 && heading.maxX < picture.width * 2 / 3, "the heading spans \(heading.minX)–\(heading.maxX)")
        // Two lines of 11-point text.
        let height = Double(heading.maxY - heading.minY) / Self.scale
        #expect(height > 16 && height < 30, "the heading is \(height) points high")
    }

    /// The band under message `index`'s bubble, right of the frame's middle, when it holds grey text: its receipt.
    static func receipt(_ renderer: ChatRenderer, _ state: ChatFrameState, under index: Int) throws -> [UInt8]? {
        renderer.render(state)
        let picture = Picture(renderer)
        let bubble = try #require(renderer.layout(state).first { $0.message == index })
        let rows = bubble.bottom..<(bubble.bottom + Int(16 * Self.scale))
        let columns = (picture.width / 2)..<picture.width
        guard picture.bounds(rows: rows, columns: columns, where: { ($0, $1, $2) == Self.grey }) != nil else { return nil }
        return picture.pixels(rows: rows, columns: columns)
    }

    /// Under the owner's latest message, "Delivered" until the other side answers, then "Read 9:41" (another width);
    /// once the owner sends again it moves to the new message. A group's receipt stays "Delivered".
    @Test func theReceiptReadsDeliveredThenReadUnderTheOwnersLatestMessage() throws {
        let input = Conversations.with(messages: [("sam", "Are you coming tonight?"), ("me", "Yes!"), ("sam", "great"), ("me", "see you")])
        let renderer = ChatRenderer(input, watermark: false)
        let delivered = try #require(try Self.receipt(renderer, ChatFrameState(sent: 2, activity: .idle), under: 1), "no receipt under \"Yes!\"")
        let read = try #require(
            try Self.receipt(renderer, ChatFrameState(sent: 2, activity: .indicator(message: 2, phase: 5)), under: 1), "no receipt once Sam types")
        #expect(read != delivered, "\"Read\" looks as \"Delivered\"")
        #expect(try Self.receipt(renderer, ChatFrameState(sent: 3, activity: .idle), under: 1) == read, "not still read once Sam answered")
        #expect(try Self.receipt(renderer, ChatFrameState(sent: 4, activity: .idle), under: 1) == nil, "the receipt stayed under \"Yes!\"")
        #expect(try Self.receipt(renderer, ChatFrameState(sent: 4, activity: .idle), under: 3) != nil, "no receipt under \"see you\"")

        let group = ChatRenderer(Conversations.group(), watermark: false)
        let sent = try #require(try Self.receipt(group, ChatFrameState(sent: 6, activity: .idle), under: 5), "no receipt in the group")
        #expect(try Self.receipt(group, ChatFrameState(sent: 7, activity: .idle), under: 5) == sent, "a group's receipt changed once answered")
    }

    /// When the owner's next message takes the receipt, the messages between move up by its space over several
    /// pictures (as the message is typed in its bubble, or as it arrives from the field), none taking more than two
    /// thirds of the way at once, and nothing moves when the message is sent.
    @Test(arguments: [ChatTypingStyle.bubble, .field])
    func theReceiptMovesOnWithoutAJump(style: ChatTypingStyle) throws {
        let input = Conversations.with(messages: [("me", "Are you coming tonight?"), ("sam", "yes, at nine"), ("me", "great, see you there")]) {
            $0.typingStyle = style
        }
        let renderer = ChatRenderer(input, watermark: false)
        let states = ChatTimeline(input).segments.map(\.state).filter { $0.sent == 2 || $0.sent == 3 }
        let tops = try states.map { state in try #require(renderer.layout(state).first { $0.message == 1 }).top }
        // More than 10 points.
        ChatRunTests.expectSmooth(tops, by: Int(10 * Self.scale), "Sam's reply moving up")
    }

    /// A link in a received message is underlined in the link blue, and its card follows in a grey balloon of its own,
    /// the site's name in it; a message that is only a link is its card alone.
    @Test func aLinkIsColouredAndFollowedByItsCard() throws {
        let input = Conversations.with(messages: [
            ("sam", "tickets at luma.com/rooftop tonight"), ("me", "https://apple.com"), ("sam", "ask ana@example.com, the example.community one"),
        ])
        let renderer = ChatRenderer(input, watermark: false)
        let state = ChatFrameState(sent: 3, activity: .idle)
        renderer.render(state)
        let picture = Picture(renderer)
        let placements = renderer.layout(state)
        let bubble = try #require(placements.first)
        let link = picture.bounds(rows: bubble.top..<bubble.bottom, columns: bubble.left..<bubble.right) { ($0, $1, $2) == (0x0A, 0x84, 0xFF) }
        #expect(link != nil, "no link blue in the message")
        // The card: grey rows from just under the bubble, as tall as two lines of text at least.
        let cardRows = (bubble.bottom + 1)..<(bubble.bottom + Int(60 * Self.scale))
        let card = try #require(
            picture.bounds(rows: cardRows, columns: bubble.left..<(bubble.left + Int(20 * Self.scale))) { ($0, $1, $2) == Self.received },
            "no card under the message")
        #expect(Double(card.maxY - card.minY) / Self.scale > 40, "the card is \(card) high")
        // The message that is only a link is a grey card on the owner's side, not a blue bubble.
        let own = try #require(placements.first { $0.message == 1 })
        let middle = (own.top + own.bottom) / 2 * picture.width * 3 + (own.left + 10) * 3
        #expect((picture.rgb[middle], picture.rgb[middle + 1], picture.rgb[middle + 2]) == Self.received, "the owner's link is not a card")
        // An e-mail address and a word that only starts like a domain are no links: no link blue, no card under them.
        let plain = try #require(placements.last)
        let blue = picture.bounds(rows: plain.top..<plain.bottom, columns: plain.left..<plain.right) { ($0, $1, $2) == (0x0A, 0x84, 0xFF) }
        #expect(blue == nil, "a link found in \"ask ana@example.com, the example.community one\"")
        let below = picture.bounds(
            rows: (plain.bottom + 1)..<min(picture.height, plain.bottom + Int(30 * Self.scale)), columns: plain.left..<(plain.left + 20)
        ) {
            ($0, $1, $2) == Self.received
        }
        #expect(below == nil, "a card under a message without a link")
    }

    /// iOS's chat apps break a word too long for a line without a hyphen: the chat's first line is exactly as wide as
    /// its characters; a book's (hyphenating) is wider by the hyphen it adds.
    @Test func aLongWordBreaksWithoutAHyphen() throws {
        let typesetter = Typesetter()
        let word = "supercalifragilisticexpialidocious"
        func firstLine(hyphenates: Bool) throws -> (width: Double, characters: Int) {
            let layout = typesetter.layout(word, size: 17, width: 120, hyphenates: hyphenates)
            let line = try #require(pango_layout_get_line_readonly(layout.pointer, 0))
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            return (Double(logical.width) / Double(PANGO_SCALE), Int(line.pointee.length))
        }
        for hyphenates in [false, true] {
            let line = try firstLine(hyphenates: hyphenates)
            let alone = typesetter.layout(String(word.prefix(line.characters)), size: 17).width
            if hyphenates {
                #expect(line.width > alone + 2, "a book's broken word has no hyphen")
            } else {
                #expect(abs(line.width - alone) < 0.5, "the chat's first line is \(line.width) wide, its characters \(alone)")
            }
        }
    }
}
