import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

/// The details of each app that its users would notice missing, checked in the rendered pixels.
@Suite struct ChatThemeDetailTests {
    /// Pixels per point at 9:16, where the phone's 390-point screen fills the 1080-pixel width.
    static let portraitScale = 1080.0 / 390

    /// The status bar shows the signal bars and the Wi-Fi mark beside the battery, as on a phone with reception: in the
    /// status bar's right half, six separate marks (four bars, the Wi-Fi fan, the battery), at every format.
    @Test(arguments: ChatVideoFormat.allCases)
    func theStatusBarShowsSignalAndWiFi(format: ChatVideoFormat) {
        let renderer = ChatRenderer(Conversations.short { $0.format = format }, watermark: false)
        renderer.render(ChatFrameState(sent: 0, activity: .idle))
        let picture = Picture(renderer)
        let statusBar = 0..<(picture.height / 16)
        // The columns of the right half holding the status bar's black, in runs separated by the background.
        var marks = 0
        var inMark = false
        for x in (picture.width / 2)..<picture.width {
            let dark = Self.column(picture, x: x, rows: statusBar)
            if dark && !inMark { marks += 1 }
            inMark = dark
        }
        #expect(marks == 6, "\(marks) marks in the status bar's right half at \(format.rawValue)")
    }

    /// iMessage's tail is iOS's hook, on both sides: the tip reaches the bubble's bottom beyond its side, the bottom
    /// curves up into a notch before the tip (the background shows under it), and further in the bottom is flat again.
    @Test(arguments: [ChatSide.right, .left])
    func iMessageTailsAreCurvedHooks(side: ChatSide) throws {
        let renderer = ChatRenderer(Conversations.short(), watermark: false)
        renderer.render(ChatFrameState(sent: 2, activity: .idle))
        let picture = Picture(renderer)
        let color: (UInt8, UInt8, UInt8) = side == .right ? (0x0B, 0x84, 0xFE) : (0xE9, 0xE9, 0xEB)
        let bubble = try #require(picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == color })
        let scale = Self.portraitScale
        /// The lowest row of the bubble's colour in the column `points` in from the tail's tip.
        func bottom(pointsIn points: Double) -> Int? {
            let x = side == .right ? bubble.maxX - Int(points * scale) : bubble.minX + Int(points * scale)
            return (bubble.minY...bubble.maxY).last { y in
                let index = (y * picture.width + x) * 3
                return (picture.rgb[index], picture.rgb[index + 1], picture.rgb[index + 2]) == color
            }
        }
        let tip = try #require(bottom(pointsIn: 0.5))
        let notch = try #require(bottom(pointsIn: 11))
        let flat = try #require(bottom(pointsIn: 27))
        #expect(bubble.maxY - tip <= Int(scale), "the tip ends \(bubble.maxY - tip) pixels above the bottom")
        #expect(bubble.maxY - notch >= Int(2.5 * scale), "the notch is \(bubble.maxY - notch) pixels deep")
        #expect(bubble.maxY - flat <= Int(scale), "the bottom 27 points in is \(bubble.maxY - flat) pixels up")
    }

    /// WhatsApp's tail is at the top outer corner, on both sides: the bubble's colour reaches beyond its side along its top
    /// and not along its bottom. Each sent bubble ends with its time and two blue ticks, each received one with its time.
    @Test(arguments: [ChatSide.right, .left])
    func whatsAppTailsAreAtTheTopWithTheTimeAndTicks(side: ChatSide) throws {
        var input = Conversations.short { $0.theme = .whatsapp }
        // Without emoji, whose white background would read as a received bubble's.
        input.conversation.messages[1].text = "Yes! leaving now"
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(ChatFrameState(sent: 2, activity: .idle))
        let picture = Picture(renderer)
        let color: (UInt8, UInt8, UInt8) = side == .right ? (0xDC, 0xF8, 0xC6) : (0xFF, 0xFF, 0xFF)
        let header = try #require(picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == (0xD8, 0xD8, 0xDC) }, "no header separator")
        let bubble = try #require(picture.bounds(rows: (header.maxY + 1)..<(picture.height / 2)) { ($0, $1, $2) == color })
        let scale = Self.portraitScale
        /// How far the bubble's colour reaches outwards in `rows`, in pixels from the bubble's outer bound.
        func reach(_ rows: Range<Int>) throws -> Int {
            let box = try #require(picture.bounds(rows: rows) { ($0, $1, $2) == color })
            return side == .right ? bubble.maxX - box.maxX : box.minX - bubble.minX
        }
        #expect(try reach(bubble.minY..<(bubble.minY + Int(scale))) <= Int(scale), "the top does not reach the tail's tip")
        let lowerHalf = ((bubble.minY + bubble.maxY) / 2)..<(bubble.maxY + 1)
        #expect(try reach(lowerHalf) >= Int(6 * scale), "the lower half reaches out as far as a tail")
        // The time in the bubble's lower right corner, and on a sent bubble the read ticks' blue.
        let rightHalf = { (x: Int) in x >= (bubble.minX + bubble.maxX) / 2 && x <= bubble.maxX }
        // Past the end of the text (whose anti-aliased edges take the time's grey too): the corner the time and ticks take.
        let corner = (bubble.maxX - Int((side == .right ? 56 : 40) * scale))..<(bubble.maxX + 1)
        let time = picture.bounds(rows: lowerHalf, columns: corner) {
            abs(Int($0) - 0x66) < 14 && abs(Int($1) - 0x77) < 14 && abs(Int($2) - 0x81) < 14
        }
        #expect(time.map { rightHalf($0.minX) && rightHalf($0.maxX) } == true, "no time in the bubble's lower corner: \(String(describing: time))")
        let ticks = picture.bounds(rows: lowerHalf) { $0 < 0x70 && $1 > 0xA0 && $2 > 0xD0 }
        if side == .right {
            #expect(ticks.map { rightHalf($0.minX) && rightHalf($0.maxX) } == true, "no blue ticks: \(String(describing: ticks))")
        } else {
            #expect(ticks == nil, "ticks on a received message")
        }
    }

    /// A message of one to three emoji is drawn large and without a bubble, as iMessage does; a fourth emoji puts it back
    /// in a bubble of the usual size.
    @Test(arguments: ["👍🏽🎉", "❤️", "👨‍👩‍👧 🇫🇷 😂"])
    func upToThreeEmojiAreDrawnLargeWithoutABubble(text: String) throws {
        func sentMessage(_ text: String) throws -> (bubble: Bool, height: Int) {
            var input = Conversations.short()
            input.conversation.messages = [ChatMessageLine(character: "sam", text: "Are you coming?"), ChatMessageLine(character: "me", text: text)]
            let renderer = ChatRenderer(input, watermark: false)
            renderer.render(ChatFrameState(sent: 2, activity: .idle))
            let picture = Picture(renderer)
            let received = try #require(picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == (0xE9, 0xE9, 0xEB) })
            let rows = (received.maxY + 1)..<(picture.height / 2)
            let drawn = try #require(picture.bounds(rows: rows) { $0 < 0xF0 || $1 < 0xF0 || $2 < 0xF0 }, "nothing sent")
            #expect(drawn.maxX > picture.width * 3 / 4, "the message is not on the sender's side")
            return (picture.bounds(rows: rows) { ($0, $1, $2) == (0x0B, 0x84, 0xFE) } != nil, drawn.maxY - drawn.minY)
        }
        let large = try sentMessage(text)
        #expect(!large.bubble, "\(text) is in a bubble")
        #expect(large.height >= Int(40 * Self.portraitScale), "\(text) is \(large.height) pixels high")
        let four = try sentMessage(text + "🦊🦊🦊")
        #expect(four.bubble, "four emoji or more are not in a bubble")
        #expect(four.height < large.height, "four emoji or more are drawn large")
    }

    /// A group chat's header shows its members' pictures stacked side by side, and each received message has its
    /// sender's small picture beside it, in iMessage's centred header and WhatsApp's header on the left.
    @Test(arguments: [ChatTheme.imessage, .whatsapp])
    func aGroupChatShowsItsMembersPictures(theme: ChatTheme) throws {
        let members = [
            ChatCharacter(id: "sam", name: "Sam", color: "#34C759", side: .left, avatar: nil),
            ChatCharacter(id: "ana", name: "Ana", color: "#FF9500", side: .left, avatar: nil),
            ChatCharacter(id: "leo", name: "Leo", color: "#AF52DE", side: .left, avatar: nil),
        ]
        var input = Conversations.short { $0.theme = theme }
        input.conversation.characters = [Conversations.characters[0]] + members
        input.conversation.messages = members.map { ChatMessageLine(character: $0.id, text: "Hi, I am \($0.name)") }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(ChatFrameState(sent: 3, activity: .idle))
        let picture = Picture(renderer)
        let received: (UInt8, UInt8, UInt8) = theme == .imessage ? (0xE9, 0xE9, 0xEB) : (0xFF, 0xFF, 0xFF)
        let header = try #require(picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == (0xD8, 0xD8, 0xDC) }, "no header separator")
        var discs: [(minX: Int, minY: Int, maxX: Int, maxY: Int)] = []
        for member in members {
            let color = try #require(ChatColor(hex: member.color)).rgb
            let rgb = (UInt8(color >> 16), UInt8((color >> 8) & 0xFF), UInt8(color & 0xFF))
            let disc = try #require(picture.bounds(rows: 0..<header.minY) { ($0, $1, $2) == rgb }, "\(member.name) is not in the header")
            discs.append(disc)
            // Beside the received bubble: its sender's picture, left of it, in its rows.
            let conversation = (header.maxY + 1)..<(picture.height / 2)
            // In the left margin, where the pictures are: WhatsApp writes the name inside the bubble in the same colour.
            let margin = 0..<Int(46 * Self.portraitScale)
            let beside = try #require(
                picture.bounds(rows: conversation, columns: margin) { ($0, $1, $2) == rgb }, "no picture of \(member.name) beside a message")
            // Along a row of the picture clear of its initial and of the bubble's tail (at the bubble's top in WhatsApp, its
            // bottom in iMessage), the first pixel of the bubble's colour is the bubble's edge.
            let row = theme == .whatsapp ? beside.maxY - 2 : beside.minY + 2
            let bubbleLeft = try #require(
                (0..<picture.width).first { x in
                    let index = (row * picture.width + x) * 3
                    return (picture.rgb[index], picture.rgb[index + 1], picture.rgb[index + 2]) == received
                }, "no bubble beside \(member.name)")
            #expect(beside.maxX < bubbleLeft, "\(member.name)'s picture is not left of the message")
        }
        // Side by side in the order of the members, close together but not overlapping, so each initial shows whole.
        #expect(discs[0].minX < discs[1].minX && discs[1].minX < discs[2].minX, "\(discs)")
        for (left, right) in zip(discs, discs.dropFirst()) {
            #expect(right.minX > left.maxX && right.minX < left.maxX + 6 * Int(Self.portraitScale), "\(discs)")
        }
    }

    /// Whether column `x` holds a dark pixel (the status bar's text colour in the light theme) in `rows`.
    static func column(_ picture: Picture, x: Int, rows: Range<Int>) -> Bool {
        rows.contains { y in
            let index = (y * picture.width + x) * 3
            return picture.rgb[index] < 60 && picture.rgb[index + 1] < 60 && picture.rgb[index + 2] < 60
        }
    }
}
