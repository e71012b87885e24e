import ChatTaleInputs
import ChatVideo
import Foundation
import RenderingFixtures
import Testing

@Suite struct ChatRendererTests {
    /// The picture the golden images show: two messages sent, the third half typed.
    static let goldenState = ChatFrameState(sent: 2, activity: .typing(message: 2, characters: 14))

    static var goldenDirectory: URL { Bundle.module.resourceURL!.appendingPathComponent("Golden") }

    /// One frame per theme, light and dark, compared with the committed golden picture. With `KILN_UPDATE_GOLDEN=1` the
    /// pictures are written into `Tests/Media/ChatVideoTests/Golden` instead, to be looked at and committed.
    @Test(arguments: ChatTheme.allCases, [false, true])
    func aFrameOfEachThemeMatchesItsGoldenPicture(theme: ChatTheme, dark: Bool) throws {
        let input = Conversations.short {
            $0.theme = theme
            $0.darkMode = dark
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(Self.goldenState)
        try Self.expectGolden(renderer, named: "\(theme.rawValue)-\(dark ? "dark" : "light").png")
    }

    /// The renderer's picture against the committed golden picture `name`, or written as it with `KILN_UPDATE_GOLDEN=1`.
    static func expectGolden(_ renderer: ChatRenderer, named name: String) throws {
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
            #expect(renderer.writePNG(to: source.path))
            return
        }
        let golden = try #require(Picture(png: goldenDirectory.appendingPathComponent(name).path), "no golden picture \(name)")
        // Font rendering may move an edge by a pixel between machines; a layout change moves far more.
        #expect(Picture(renderer).meanDifference(from: golden) < 1.5)
    }

    /// A group chat's finished conversation, in runs of one sender, in both apps and themes and at 9:16 and 1:1,
    /// compared with the committed golden picture (rewritten with `KILN_UPDATE_GOLDEN=1`, as above).
    @Test(arguments: [
        (ChatTheme.imessage, false, ChatVideoFormat.portrait), (.imessage, true, .portrait), (.whatsapp, false, .portrait),
        (.whatsapp, true, .square),
    ])
    func aGroupChatMatchesItsGoldenPicture(theme: ChatTheme, dark: Bool, format: ChatVideoFormat) throws {
        let input = Conversations.group {
            $0.theme = theme
            $0.darkMode = dark
            $0.format = format
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(ChatFrameState(sent: input.conversation.messages.count, activity: .idle))
        try Self.expectGolden(renderer, named: "\(theme.rawValue)-group-\(dark ? "dark" : "light")\(format == .square ? "-square" : "").png")
    }

    /// The cases the themes' and groups' pictures leave out, each compared with its committed golden picture (rewritten
    /// with `KILN_UPDATE_GOLDEN=1`, as above): iMessage typing in the field — its heading, a link's card, a long word
    /// broken without a hyphen, the "Read" receipt, the field grown to three lines and the key struck popped up; a
    /// group at 16:9, dark; right-to-left messages in WhatsApp.
    @Test(arguments: ["imessage-field", "imessage-group-dark-landscape", "whatsapp-rtl"])
    func eachOtherCaseMatchesItsGoldenPicture(name: String) throws {
        let input: ChatExportInput
        let state: ChatFrameState
        switch name {
        case "imessage-field":
            input = Conversations.details { $0.typingStyle = .field }
            state = ChatFrameState(sent: 3, activity: .composing(message: 3, characters: 70))
        case "imessage-group-dark-landscape":
            input = Conversations.group {
                $0.darkMode = true
                $0.format = .landscape
            }
            state = ChatFrameState(sent: 6, activity: .typing(message: 6, characters: 9))
        default:
            input = Conversations.with(messages: [
                ("sam", "שלום! מה שלומך היום?"),
                ("me", "\u{645}\u{631}\u{62D}\u{628}\u{627} \u{628}\u{627}\u{644}\u{639}\u{627}\u{644}\u{645}"),
                ("sam", "See you at שוק הכרמל tomorrow"),
                ("me", "نلتقي في the station غدا"),
            ]) { $0.theme = .whatsapp }
            state = ChatFrameState(sent: 4, activity: .idle)
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(state)
        try Self.expectGolden(renderer, named: "\(name).png")
    }

    /// What the cached layers and dirty rows produce equals drawing every picture from nothing: the short and the group
    /// conversations, and one with links, a receipt moving on, a message that grows the field to several lines and
    /// emoji typed on the emoji keyboard.
    @Test(arguments: [
        (ChatVideoFormat.portrait, ChatTypingStyle.bubble, "short"), (.landscape, .bubble, "short"), (.portrait, .field, "short"),
        (.square, .bubble, "group"), (.portrait, .field, "group"), (.portrait, .field, "details"), (.portrait, .bubble, "details"),
    ])
    func drawingFromCachedLayersEqualsDrawingFromScratch(format: ChatVideoFormat, typing: ChatTypingStyle, conversation: String) {
        let configure = { (settings: inout ChatExportSettings) in
            settings.format = format
            settings.keyboard = format != .landscape
            settings.typingStyle = typing
        }
        let input =
            switch conversation {
            case "group": Conversations.group(configure)
            case "details": Conversations.details(configure)
            default: Conversations.short(configure)
            }
        let timeline = ChatTimeline(input)
        let cached = ChatRenderer(input, watermark: true)
        let scratch = ChatRenderer(input, watermark: true)
        for (index, segment) in timeline.segments.enumerated() {
            cached.render(segment.state)
            // Every seventh picture, and the last: enough to cross typing, sending, scrolling and the indicator.
            guard index % 7 == 0 || index == timeline.segments.count - 1 else { continue }
            scratch.renderFromScratch(segment.state)
            #expect(Picture(cached).maxDifference(from: Picture(scratch)) <= 2, "picture \(index): \(segment.state)")
        }
    }

    /// Typing in the field: the sender's words appear in the input field and nowhere else, and the send button, grey
    /// while the field is empty, is lit once it holds text.
    @Test func typingInTheFieldShowsTheWordsThereAndLightsTheSendButton() throws {
        let renderer = ChatRenderer(Conversations.short { $0.typingStyle = .field }, watermark: false)
        renderer.render(ChatFrameState(sent: 1, activity: .idle))
        let empty = Picture(renderer)
        renderer.render(ChatFrameState(sent: 1, activity: .composing(message: 1, characters: 4)))
        let composing = Picture(renderer)
        let lower = (empty.height / 2)..<empty.height
        let button = try #require(composing.bounds(rows: lower) { ($0, $1, $2) == (0x0B, 0x84, 0xFE) }, "no lit send button")
        #expect(empty.bounds(rows: lower) { ($0, $1, $2) == (0x0B, 0x84, 0xFE) } == nil, "the send button is lit with nothing to send")
        let size = button.maxX - button.minX
        let disc = empty.meanColor(x: button.minX + size / 6, y: button.minY + size * 2 / 5, width: size / 8, height: size / 5)
        #expect(disc.red > 0xC0 && abs(disc.red - disc.blue) < 8, "the empty field's send button is \(disc), not grey")
        // "Yes!" in black in the field, left of the button; nothing above the field changed, the conversation included
        // (the keyboard below it did: its capitals turned lowercase).
        let bar = (button.minY - size / 2)..<(button.maxY + size / 2)
        let rows = try #require(composing.differingRows(from: empty))
        #expect(bar.contains(rows.lowerBound), "rows \(rows) changed, the input bar is \(bar)")
        let text = try #require(composing.bounds(rows: bar) { $0 < 0x40 && $1 < 0x40 && $2 < 0x40 }, "no words in the field")
        #expect(text.maxX < button.minX && text.minX > empty.width / 10, "\(text)")
    }

    /// Typing in the field, a sent message slides up from the input field into its place, eased out: a few ticks in it
    /// is on its way (lower than its place, higher than the field), and at the last step it has almost arrived.
    @Test func aMessageSentFromTheFieldSlidesIntoPlace() throws {
        let renderer = ChatRenderer(Conversations.short { $0.typingStyle = .field }, watermark: false)
        /// The sent bubble's top, in the conversation above the input bar.
        func sentTop(_ state: ChatFrameState) throws -> Int {
            renderer.render(state)
            let picture = Picture(renderer)
            return try #require(picture.bounds(rows: 0..<(picture.height * 2 / 3)) { ($0, $1, $2) == (0x0B, 0x84, 0xFE) }, "\(state)").minY
        }
        let resting = try sentTop(ChatFrameState(sent: 2, activity: .idle))
        let early = try sentTop(ChatFrameState(sent: 1, activity: .arriving(message: 1, step: 2, of: 15)))
        let late = try sentTop(ChatFrameState(sent: 1, activity: .arriving(message: 1, step: 14, of: 15)))
        #expect(early > resting + 100, "two ticks in, the bubble is at \(early), its place at \(resting)")
        #expect(late >= resting && late < early && late - resting < 5, "at the end it is at \(late), its place at \(resting)")
    }

    /// Typing in the field, a message that makes the chat scroll scrolls it smoothly as it arrives: a few ticks in, the
    /// first visible message stands between where it was while the words were in the field and where it ends up.
    @Test func aMessageArrivingInALongChatScrollsItSmoothly() throws {
        var input = Conversations.short { $0.typingStyle = .field }
        input.conversation.messages = (0..<12).map { ChatMessageLine(character: $0 % 2 == 0 ? "sam" : "me", text: "Message number \($0 + 1)") }
        let renderer = ChatRenderer(input, watermark: false)
        /// The bottom of the tenth message's bubble in the picture drawn, a landmark that scrolls.
        func landmark(_ state: ChatFrameState) throws -> Int {
            renderer.render(state)
            let placement = try #require(renderer.layout(state).first { $0.message == 9 }, "\(state)")
            let picture = Picture(renderer)
            let bubble = picture.bounds(rows: placement.top..<placement.bottom, columns: placement.left..<placement.right) {
                ($0, $1, $2) == (0x0B, 0x84, 0xFE)
            }
            #expect(
                bubble.map { abs($0.maxY - placement.bottom) <= 2 } == true,
                "the picture's bubble \(String(describing: bubble)) is not where the layout says")
            return placement.bottom
        }
        let before = try landmark(ChatFrameState(sent: 11, activity: .composing(message: 11, characters: 5)))
        let moving = try landmark(ChatFrameState(sent: 11, activity: .arriving(message: 11, step: 1, of: 15)))
        let after = try landmark(ChatFrameState(sent: 12, activity: .idle))
        #expect(after < before, "the chat did not scroll (\(before) → \(after))")
        #expect(after < moving && moving < before, "mid-arrival the chat is at \(moving), between \(before) and \(after)?")
    }

    /// Without the keyboard the strip under the input bar is the home indicator on the input bar's white, at every
    /// format: no row of keys on the keyboard's grey.
    @Test(arguments: ChatVideoFormat.allCases)
    func withoutTheKeyboardTheBottomStripShowsNoKeys(format: ChatVideoFormat) {
        let input = Conversations.short {
            $0.format = format
            $0.keyboard = false
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(ChatFrameState(sent: 0, activity: .idle))
        let picture = Picture(renderer)
        // The left fifth of the bottom 30 rows, beside the centred home indicator.
        let strip = picture.meanColor(x: 0, y: picture.height - 30, width: picture.width / 5, height: 30)
        #expect(strip.red > 250 && strip.green > 250 && strip.blue > 250, "\(strip)")
    }

    /// The free tier's mark is seen and hides nothing, at every format: with the newest message being typed at the
    /// bottom and just after the last send, the marked picture differs from the clean one only in the status bar (the top
    /// tenth of the picture), and there it differs.
    @Test(arguments: ChatVideoFormat.allCases)
    func theWatermarkHidesNoMessage(format: ChatVideoFormat) throws {
        let input = Conversations.short { $0.format = format }
        let marked = ChatRenderer(input, watermark: true)
        let clean = ChatRenderer(input, watermark: false)
        for state in [ChatFrameState(sent: 2, activity: .typing(message: 2, characters: 20)), ChatFrameState(sent: 3, activity: .idle)] {
            marked.render(state)
            clean.render(state)
            let rows = try #require(Picture(marked).differingRows(from: Picture(clean)), "no watermark at \(format.rawValue)")
            #expect(rows.upperBound < clean.height / 10, "the mark reaches row \(rows.upperBound) of \(clean.height) at \(format.rawValue)")
        }
    }

    /// At 16:9 the conversation is laid out for a landscape screen: centred on the frame, and its text large enough to
    /// read across a room (a one-line bubble at least 75 of 1080 rows high, where the phone's layout stretched gave 56).
    @Test func atSixteenByNineTheConversationIsCentredAndReadable() throws {
        let input = Conversations.short {
            $0.format = .landscape
            $0.keyboard = false
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(ChatFrameState(sent: 2, activity: .idle))
        let picture = Picture(renderer)
        // Both messages are in the top half, away from the send button of the sent bubbles' blue.
        let top = 0..<(picture.height / 2)
        let received = try #require(picture.bounds(rows: top) { ($0, $1, $2) == (0xE9, 0xE9, 0xEB) })
        let sent = try #require(picture.bounds(rows: top) { ($0, $1, $2) == (0x0B, 0x84, 0xFE) })
        let middle = (received.minX + sent.maxX) / 2
        #expect(abs(middle - picture.width / 2) < 10, "the conversation spans \(received.minX)–\(sent.maxX) of \(picture.width)")
        #expect(received.minX > picture.width / 6, "\(received.minX)")
        #expect(received.maxY - received.minY >= 75, "a one-line bubble \(received.maxY - received.minY) pixels high")
    }

    /// Right-to-left and mixed-direction messages sit inside bubbles sized to them: at 9:16 and 16:9, on both sides and
    /// wrapped over lines, the text's pixels are inside its bubble with equal margins left and right (Messenger dark:
    /// white text, bubbles without tails, a black background).
    @Test(arguments: [ChatVideoFormat.portrait, .landscape], [ChatSide.left, .right])
    func rightToLeftTextIsLaidOutInsideItsBubble(format: ChatVideoFormat, side: ChatSide) throws {
        let texts = [
            "\u{645}\u{631}\u{62D}\u{628}\u{627} \u{628}\u{627}\u{644}\u{639}\u{627}\u{644}\u{645}",
            "שלום עולם, מה שלומך היום? אני בדרך הביתה ואגיע בעוד עשר דקות בערך, תחכו לי ליד הדלת בבקשה",
            "See you at שוק הכרמל tomorrow",
            "نلتقي في the station غدا",
        ]
        for text in texts {
            var input = Conversations.short {
                $0.format = format
                $0.theme = .messenger
                $0.darkMode = true
            }
            let speaker = side == .right ? "me" : "sam"
            input.conversation.messages = [ChatMessageLine(character: speaker, text: text)]
            let renderer = ChatRenderer(input, watermark: false)
            renderer.render(ChatFrameState(sent: 1, activity: .idle))
            let picture = Picture(renderer)
            let bubbleColor: (UInt8, UInt8, UInt8) = side == .right ? (0x0A, 0x7C, 0xFF) : (0x30, 0x30, 0x30)
            // The first message is under the header (its back arrow and the send button are the sent bubbles' blue),
            // in the top half.
            let header = try #require(
                picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == (0x24, 0x25, 0x26) }, "no header separator")
            let bubble = try #require(
                picture.bounds(rows: (header.maxY + 1)..<(picture.height / 2)) { ($0, $1, $2) == bubbleColor }, "no bubble for \(text)")
            let textPixels = try #require(
                picture.bounds(rows: bubble.minY..<(bubble.maxY + 1)) { $0 > 180 && $1 > 180 && $2 > 180 }, "no text for \(text)")
            let left = textPixels.minX - bubble.minX
            let right = bubble.maxX - textPixels.maxX
            #expect(left > 0 && right > 0, "\(format.rawValue) \(side): \(text) reaches outside its bubble (\(left), \(right))")
            #expect(abs(left - right) < picture.width / 100, "\(format.rawValue) \(side): \(text) off centre in its bubble (\(left), \(right))")
        }
    }
}
