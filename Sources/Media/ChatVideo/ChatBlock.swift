import CPangoCairo
import Foundation
import ChatTaleInputs
import Drawing

/// One message as the chat shows it — a bubble on its sender's side, or a Discord row with avatar and name — laid out
/// and ready to draw. A block spans the frame's width; `height` includes a link's card under the bubble and the gap
/// below: tight inside a run of one sender's consecutive messages, wider between runs, as the apps space them.
struct ChatBlock {
    enum Content {
        case text(TextLayout, cursor: Bool)
        /// One to three emoji, large and without a bubble (``LargeEmoji``), once sent.
        case largeEmoji(TextLayout)
        /// The "…" bubble at one phase of its wave.
        case indicator(phase: Int)
        /// A message that is one link and nothing else: its card alone, as the bubble (iMessage).
        case card(ChatLinkCard)

        /// Drawn without a bubble.
        var isBare: Bool {
            if case .largeEmoji = self { true } else { false }
        }

        /// Carries its run's tail when it is the run's marked message: a message's bubble, not the "…".
        var hasTail: Bool {
            switch self {
            case .text, .card: true
            case .largeEmoji, .indicator: false
            }
        }
    }

    let content: Content
    let side: ChatSide
    let sender: ChatCharacter
    /// The sender's name, once per run at its start (group chats and Discord): above the bubble, or inside it at its
    /// top (WhatsApp).
    let name: TextLayout?
    let nameColor: RGBColor
    /// The time in the bubble's lower right corner (WhatsApp), once the message is sent.
    let stamp: TextLayout?
    /// The run's tail, on one message of its run: the last (iMessage; on its link's card when it has one) or the first
    /// (WhatsApp, whose tail is at the top).
    let tail: Bool
    /// The sender's picture beside the bubble (group chats, Discord), on the same bubble of its run as the tail would be.
    let avatar: Bool
    let height: Int
    /// The bubble (or row text) within the block, in pixels from its top-left corner.
    let bubble: (x: Double, y: Double, width: Double, height: Double)
    /// Where the text starts below the bubble's top, in pixels: lower when the name is inside the bubble.
    let textTop: Double
    /// The card of a link in the message, under its bubble, in pixels from the block's top-left corner (iMessage): the
    /// run's tail goes on it then, as it is the last balloon.
    let card: (card: ChatLinkCard, x: Double, y: Double)?

    /// The message's last balloon, in pixels from the block's top-left corner: the link's card under the bubble when
    /// there is one, else the bubble. The run's tail and (iMessage) the sender's picture and the receipt go by it.
    var lastBalloon: (x: Double, y: Double, width: Double, height: Double) {
        card.map { (x: $0.x, y: $0.y, width: $0.card.width, height: $0.card.height) } ?? bubble
    }
}

/// Makes and draws ``ChatBlock``s for one conversation in one style.
struct ChatBlockMaker {
    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter
    let sides: [String: ChatSide]
    let characters: [String: ChatCharacter]
    let messages: [ChatMessageLine]
    /// A group chat (three characters or more) names the sender of each run of received messages and shows their
    /// picture beside it.
    let inGroup: Bool

    static let textPoints = 17.0
    /// The width of a sender's picture beside a received message in a group chat.
    static let groupAvatarPoints = 28.0
    /// The space between two runs of messages, and between two messages of one run.
    static let gapPoints = 8.0
    static let runGapPoints = 2.0

    /// Whether message `index` opens a run of its sender's consecutive messages.
    func startsRun(_ index: Int) -> Bool {
        index == 0 || messages[index - 1].character != messages[index].character
    }

    /// Whether messages `index` and `index + 1` are of one run.
    func continuesRun(_ index: Int) -> Bool {
        index + 1 < messages.count && !startsRun(index + 1)
    }

    private func px(_ points: Double) -> Double { geometry.px(points) }

    /// The widest a bubble's text may be.
    private var textWidth: Double {
        switch style.layout {
        case .bubbles: min(geometry.column.width * 0.7, px(480)) - px(24)
        case .rows: geometry.column.width - px(72 + 16)
        }
    }

    /// The time every message shows, as the status bar does.
    static let time = "9:41"

    /// Message `index` showing `text` (all of it once sent, a prefix with a cursor while it is typed). `endsRun`: no
    /// later message of its run is on screen yet, so it carries its run's last marks (iMessage's tail and picture).
    func block(for index: Int, text: String, cursor: Bool, endsRun: Bool) -> ChatBlock {
        let message = messages[index]
        if !cursor && LargeEmoji.applies(to: text) {
            let layout = typesetter.layout(text, size: px(LargeEmoji.points))
            return block(index, endsRun: endsRun, content: .largeEmoji(layout), contentWidth: layout.width, contentHeight: layout.height)
        }
        // Links are found once the message is sent, as the apps find them.
        let links = cursor ? [] : ChatLink.ranges(in: text)
        let card = style.linkCards ? links.first.map { linkCard(text[$0]) } : nil
        if let card, let link = links.first, text.trimmingCharacters(in: .whitespacesAndNewlines) == text[link] {
            return block(index, endsRun: endsRun, content: .card(card), contentWidth: card.width - px(24), contentHeight: card.height - px(16))
        }
        let layout = typesetter.layout(
            cursor ? text + "|" : text, size: px(style.layout == .rows ? 16 : Self.textPoints), width: textWidth, hyphenates: false, links: links,
            linkColor: sides[message.character] == .right ? style.sentLink : style.receivedLink)
        if let card {
            return block(
                index, endsRun: endsRun, content: .text(layout, cursor: cursor), card: card, contentWidth: layout.width, contentHeight: layout.height)
        }
        guard style.stamps else {
            return block(index, endsRun: endsRun, content: .text(layout, cursor: cursor), contentWidth: layout.width, contentHeight: layout.height)
        }
        // The time (and a sent message's ticks) ends the last line when it fits beside it, else has a line of its own.
        // While the message is typed its place is kept, so the bubble does not grow when it is sent.
        let stamp = typesetter.layout(Self.time, size: px(11))
        let stampWidth = stamp.width + (sides[message.character] == .right ? px(Self.ticksPoints) : 0)
        let (lastLine, leftToRight) = Self.lastLine(layout)
        // A right-to-left last line ends on the left, under the time: the time goes below it.
        let sameLine = (leftToRight || pango_layout_get_line_count(layout.pointer) == 1) && lastLine + px(8) + stampWidth <= textWidth
        return block(
            index, endsRun: endsRun, content: .text(layout, cursor: cursor), stamp: cursor ? nil : stamp,
            contentWidth: sameLine ? max(layout.width, lastLine + px(8) + stampWidth) : max(layout.width, stampWidth),
            contentHeight: sameLine ? layout.height : layout.height + stamp.height)
    }

    /// The width of `layout`'s last line, in pixels, and whether it reads left to right.
    private static func lastLine(_ layout: TextLayout) -> (width: Double, leftToRight: Bool) {
        let count = pango_layout_get_line_count(layout.pointer)
        guard count > 0, let line = pango_layout_get_line_readonly(layout.pointer, count - 1) else { return (layout.width, true) }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        return (Double(logical.width) / Double(PANGO_SCALE), pango_layout_line_get_resolved_direction(line) != PANGO_DIRECTION_RTL)
    }

    /// The card of `address`: as wide as the widest bubble, its host over the address, each on one line.
    private func linkCard(_ address: Substring) -> ChatLinkCard {
        let width = textWidth + px(24)
        let textRoom = width - px(12 + 12 + 26 + 8)
        let site = typesetter.layout(ChatLink.host(of: address), size: px(15), weight: PANGO_WEIGHT_SEMIBOLD, width: textRoom, maxLines: 1)
        let shown = address.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: "http://", with: "")
        let line = typesetter.layout(shown, size: px(13), width: textRoom, maxLines: 1)
        return ChatLinkCard(site: site, address: line, width: width, height: px(10) + site.height + px(1) + line.height + px(10))
    }

    /// The "…" of message `index`'s sender: the last on screen of its run.
    func indicator(for index: Int, phase: Int) -> ChatBlock {
        block(index, endsRun: true, content: .indicator(phase: phase), contentWidth: px(38), contentHeight: px(20))
    }

    private func block(
        _ index: Int, endsRun: Bool, content: ChatBlock.Content, stamp: TextLayout? = nil, card: ChatLinkCard? = nil, contentWidth: Double,
        contentHeight: Double
    ) -> ChatBlock {
        let message = messages[index]
        let sender = characters[message.character]!
        let side = sides[message.character] ?? .left
        let startsRun = startsRun(index)
        let gap = px(continuesRun(index) ? Self.runGapPoints : Self.gapPoints)
        // The marks of a run go on its first bubble when the tail is at the top, else on its last.
        let marked = style.tail == .topCorner ? startsRun : endsRun
        switch style.layout {
        case .bubbles:
            let named = inGroup && side == .left && startsRun
            let inside = named && style.namesInBubble && !content.isBare
            let name =
                named ? typesetter.layout(sender.name, size: px(inside ? 13 : 12), weight: inside ? PANGO_WEIGHT_SEMIBOLD : PANGO_WEIGHT_NORMAL) : nil
            let nameAbove = name.map { inside ? 0 : $0.height + px(2) } ?? 0
            let nameInside = name.map { inside ? $0.height + px(1) : 0 } ?? 0
            let bare = content.isBare
            let width = bare ? contentWidth : max(max(contentWidth, inside ? name?.width ?? 0 : 0) + px(24), px(36))
            let height = contentHeight + nameInside + (bare ? 0 : px(16))
            let left = geometry.x(inGroup ? 14 + Self.groupAvatarPoints + 6 : 14)
            let x = side == .right ? geometry.right - px(14) - width : left
            let placedCard = card.map {
                (card: $0, x: side == .right ? geometry.right - px(14) - $0.width : left, y: nameAbove + height + px(Self.runGapPoints))
            }
            let below = placedCard.map { px(Self.runGapPoints) + $0.card.height } ?? 0
            return ChatBlock(
                content: content, side: side, sender: sender, name: name, nameColor: inside ? nameColor(sender) : style.secondaryText,
                stamp: stamp, tail: marked, avatar: inGroup && side == .left && marked,
                height: Int((nameAbove + height + below + gap).rounded(.up)), bubble: (x, nameAbove, width, height), textTop: px(8) + nameInside,
                card: placedCard)
        case .rows:
            // Discord: the avatar and name head a run; the messages after them are rows of text under it.
            let gap = px(continuesRun(index) ? 4 : 16)
            let name = startsRun ? typesetter.layout(sender.name, size: px(16), weight: PANGO_WEIGHT_SEMIBOLD) : nil
            let top = name.map { $0.height + px(4) } ?? 0
            let height = max(top + contentHeight, startsRun ? px(42) : 0)
            return ChatBlock(
                content: content, side: side, sender: sender, name: name,
                nameColor: ChatColor(hex: sender.color).map(RGBColor.init) ?? style.receivedText,
                stamp: stamp, tail: false, avatar: startsRun, height: Int((height + gap).rounded(.up)),
                bubble: (geometry.x(72), top, contentWidth, contentHeight), textTop: 0, card: nil)
        }
    }

    /// A group member's name in WhatsApp's bubble: in their own colour, made lighter on a dark theme's bubble or darker
    /// on a light one until it reads there.
    private func nameColor(_ sender: ChatCharacter) -> RGBColor {
        let color = ChatColor(hex: sender.color).map(RGBColor.init) ?? style.secondaryText
        let bubble = style.receivedBubble
        func luminance(_ color: RGBColor) -> Double { 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue }
        let dark = luminance(bubble) < 0.5
        var mixed = color
        // Towards white on a dark bubble, black on a light one, in steps, until the two differ by enough to read.
        for _ in 0..<6 where abs(luminance(mixed) - luminance(bubble)) < 0.4 {
            let target = dark ? 1.0 : 0.0
            func toward(_ channel: Double) -> Double { channel + (target - channel) * 0.25 }
            mixed = RGBColor(red: toward(mixed.red), green: toward(mixed.green), blue: toward(mixed.blue))
        }
        return mixed
    }

    /// Draws `block` with its top at `y` pixels.
    func draw(_ block: ChatBlock, on canvas: Canvas, y: Int) {
        let top = Double(y)
        let bubble = block.bubble
        let sent = block.side == .right
        switch style.layout {
        case .bubbles:
            if let name = block.name, !style.namesInBubble || block.content.isBare {
                canvas.draw(name, x: bubble.x + px(12), y: top + bubble.y - name.height - px(2), block.nameColor)
            }
            let balloon = block.lastBalloon
            let last = (x: balloon.x, y: top + balloon.y, width: balloon.width, height: balloon.height)
            if block.avatar {
                let radius = px(Self.groupAvatarPoints / 2)
                // Level with the run's tail: the top of its first balloon (WhatsApp) or the bottom of its last (iMessage).
                let centerY = style.tail == .topCorner ? top + bubble.y + radius : last.y + last.height - radius
                ChatAvatar(block.sender).draw(on: canvas, centerX: geometry.x(14) + radius, centerY: centerY, radius: radius, typesetter: typesetter)
            }
            if case .largeEmoji(let layout) = block.content {
                canvas.draw(layout, x: bubble.x - layout.left, y: top + bubble.y, style.receivedText)
                return
            }
            // A link's card is grey on either side.
            let color = if case .card = block.content { style.receivedBubble } else { sent ? style.sentBubble : style.receivedBubble }
            let tailColor = block.card == nil ? color : style.receivedBubble
            if block.tail, block.content.hasTail {
                switch style.tail {
                case .none: break
                case .curvedBottom:
                    drawCurvedTail(x: last.x, y: last.y, width: last.width, height: last.height, sent: sent, tailColor, on: canvas)
                case .topCorner: drawTopTail(x: bubble.x, y: top + bubble.y, width: bubble.width, sent: sent, color, on: canvas)
                }
            }
            canvas.fillRoundedRect(
                x: bubble.x, y: top + bubble.y, width: bubble.width, height: bubble.height, radius: px(style.bubbleRadius), color)
            if let card = block.card {
                canvas.fillRoundedRect(x: last.x, y: last.y, width: last.width, height: last.height, radius: px(style.bubbleRadius), tailColor)
                drawCard(card.card, x: last.x, y: last.y, on: canvas)
            }
            if let name = block.name, style.namesInBubble {
                canvas.draw(name, x: bubble.x + px(12), y: top + bubble.y + px(6), block.nameColor)
            }
            switch block.content {
            case .text(let layout, _):
                // From the text's own left edge: a right-to-left paragraph is aligned right within the wrap width, and the
                // bubble is sized to the text, not to that width.
                canvas.draw(layout, x: bubble.x + px(12) - layout.left, y: top + bubble.y + block.textTop, sent ? style.sentText : style.receivedText)
            case .largeEmoji: break
            case .card(let card): drawCard(card, x: bubble.x, y: top + bubble.y, on: canvas)
            case .indicator(let phase):
                // Centred in the bubble under the name it may hold.
                let below = block.textTop - px(8)
                drawDots(phase: phase, centerX: bubble.x + bubble.width / 2, centerY: top + bubble.y + (below + bubble.height) / 2, on: canvas)
            }
            if let stamp = block.stamp {
                drawStamp(stamp, right: bubble.x + bubble.width - px(8), bottom: top + bubble.y + bubble.height - px(5), sent: sent, on: canvas)
            }
        case .rows:
            if let name = block.name {
                let head = top + bubble.y - name.height - px(4)
                ChatAvatar(block.sender).draw(on: canvas, centerX: geometry.x(36), centerY: head + px(20), radius: px(20), typesetter: typesetter)
                canvas.draw(name, x: bubble.x, y: head, block.nameColor)
            }
            switch block.content {
            case .text(let layout, _), .largeEmoji(let layout):
                canvas.draw(layout, x: bubble.x, y: top + bubble.y, style.receivedText)
            case .indicator(let phase):
                drawDots(phase: phase, centerX: bubble.x + px(19), centerY: top + bubble.y + px(10), on: canvas)
            case .card: break
            }
        }
    }

    /// A link's card: the site over the address, and a compass at its end.
    private func drawCard(_ card: ChatLinkCard, x: Double, y: Double, on canvas: Canvas) {
        canvas.draw(card.site, x: x + px(12) - card.site.left, y: y + px(10), style.receivedText)
        canvas.draw(card.address, x: x + px(12) - card.address.left, y: y + px(11) + card.site.height, style.secondaryText)
        let radius = px(13)
        let centerX = x + card.width - px(12) - radius
        let centerY = y + card.height / 2
        canvas.fillCircle(centerX: centerX, centerY: centerY, radius: radius, style.secondaryText)
        canvas.fillPolygon(
            [
                (centerX + px(6), centerY - px(6)), (centerX + px(1.5), centerY + px(1.5)), (centerX - px(6), centerY + px(6)),
                (centerX - px(1.5), centerY - px(1.5)),
            ], style.receivedBubble)
    }

    /// The three dots, each brightening in turn: `phase` of ``ChatTimeline/indicatorPhases`` per wave.
    private func drawDots(phase: Int, centerX: Double, centerY: Double, on canvas: Canvas) {
        for dot in 0..<3 {
            let position = Double(phase) / Double(ChatTimeline.indicatorPhases) - Double(dot) / 6
            let wave = max(0, cos(2 * Double.pi * position))
            canvas.fillCircle(
                centerX: centerX + px(Double(dot - 1) * 11), centerY: centerY - px(2) * wave, radius: px(4.2), style.typingDots,
                alpha: 0.4 + 0.6 * wave)
        }
    }

    /// iOS's tail at the bubble's lower outer corner, in the shape of the Messages app's: from the side 11 points above
    /// the bottom, a curve out to a tip 4 points beyond the side and level with the bottom, back up into a notch 4 points
    /// high, and down to the bottom 21 points in. It covers the bubble's rounded corner above it.
    private func drawCurvedTail(x: Double, y: Double, width: Double, height: Double, sent: Bool, _ color: RGBColor, on canvas: Canvas) {
        let bottom = y + height
        let edge = sent ? x + width : x
        let outward = sent ? 1.0 : -1.0
        /// A point `along` points outwards from the side and `up` points above the bottom.
        func point(_ along: Double, _ up: Double) -> (Double, Double) { (edge + outward * px(along), bottom - px(up)) }
        func curve(_ c1: (Double, Double), _ c2: (Double, Double), _ end: (Double, Double)) -> (Double, Double, Double, Double, Double, Double) {
            (c1.0, c1.1, c2.0, c2.1, end.0, end.1)
        }
        let corner = min(px(style.bubbleRadius), height / 2) / geometry.scale
        canvas.fillCurves(
            from: point(0, corner),
            [
                curve(point(0, corner), point(0, 11), point(0, 11)),
                curve(point(0, 1), point(4, 0), point(4, 0)),
                curve(point(0, -0.5), point(-4, 1), point(-7, 4)),
                curve(point(-12, -3), point(-16, 0), point(-21, 0)),
                curve(point(-21, 0), point(-21, corner), point(-21, corner)),
            ], color)
    }

    /// WhatsApp's tail: the bubble's top outer corner made square, and a point 8 points beyond the side along the top,
    /// its underside curving back to the side 12 points down.
    private func drawTopTail(x: Double, y: Double, width: Double, sent: Bool, _ color: RGBColor, on canvas: Canvas) {
        let edge = sent ? x + width : x
        let outward = sent ? 1.0 : -1.0
        /// A point `along` points outwards from the side and `down` points below the top.
        func point(_ along: Double, _ down: Double) -> (Double, Double) { (edge + outward * px(along), y + px(down)) }
        func line(to end: (Double, Double)) -> (Double, Double, Double, Double, Double, Double) { (end.0, end.1, end.0, end.1, end.0, end.1) }
        let tip = point(8, 0.8)
        let side = point(0, 12)
        let control = point(3, 6)
        canvas.fillCurves(
            from: point(-style.bubbleRadius, 0),
            [
                line(to: point(6.5, 0)),
                (point(8, 0).0, point(8, 0).1, tip.0, tip.1, tip.0, tip.1),
                (control.0, control.1, side.0, side.1, side.0, side.1),
                line(to: point(-style.bubbleRadius, 12)),
            ], color)
    }

    /// Points the two ticks of a sent message take after the time.
    static let ticksPoints = 19.0

    /// The time, and after it on a sent message WhatsApp's two blue ticks of a message read, ending at `right` and
    /// sitting on `bottom`.
    private func drawStamp(_ stamp: TextLayout, right: Double, bottom: Double, sent: Bool, on canvas: Canvas) {
        let ticks = sent ? px(Self.ticksPoints) : 0
        canvas.draw(stamp, x: right - ticks - stamp.width, y: bottom - stamp.height, style.secondaryText)
        guard sent else { return }
        let middle = bottom - stamp.height / 2
        for offset in [0.0, 4.5] {
            let left = right - ticks + px(4 + offset)
            canvas.strokeLines(
                [(left, middle), (left + px(3), middle + px(3)), (left + px(10), middle - px(4.5))], width: px(1.4), RGBColor(0x53BDEB))
        }
    }
}
