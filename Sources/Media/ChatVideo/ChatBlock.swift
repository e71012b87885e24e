import CPangoCairo
import Foundation
import ChatTaleInputs
import Drawing

/// One message as the chat shows it — a bubble on its sender's side, or a Discord row with avatar and name — laid out
/// and ready to draw. A block spans the frame's width; `height` includes the gap below it.
struct ChatBlock {
    enum Content {
        case text(TextLayout, cursor: Bool)
        /// One to three emoji, large and without a bubble (``LargeEmoji``), once sent.
        case largeEmoji(TextLayout)
        /// The "…" bubble at one phase of its wave.
        case indicator(phase: Int)

        /// Drawn without a bubble.
        var isBare: Bool {
            if case .largeEmoji = self { true } else { false }
        }
    }

    let content: Content
    let side: ChatSide
    let sender: ChatCharacter
    /// The sender's name above the message (group chats and Discord).
    let name: TextLayout?
    /// The time in the bubble's lower right corner (WhatsApp), once the message is sent.
    let stamp: TextLayout?
    let height: Int
    /// The bubble (or row text) within the block, in pixels from its top-left corner.
    let bubble: (x: Double, y: Double, width: Double, height: Double)
}

/// Makes and draws ``ChatBlock``s for one conversation in one style.
struct ChatBlockMaker {
    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter
    let sides: [String: ChatSide]
    let characters: [String: ChatCharacter]
    /// A group chat (three characters or more) names the sender of each received message and shows their picture
    /// beside it.
    let inGroup: Bool

    static let textPoints = 17.0
    /// The width of a sender's picture beside a received message in a group chat.
    static let groupAvatarPoints = 28.0
    static let gapPoints = 6.0

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

    func block(for message: ChatMessageLine, text: String, cursor: Bool) -> ChatBlock {
        if !cursor && LargeEmoji.applies(to: text) {
            let layout = typesetter.layout(text, size: px(LargeEmoji.points))
            return block(message, content: .largeEmoji(layout), contentWidth: layout.width, contentHeight: layout.height)
        }
        let layout = typesetter.layout(cursor ? text + "|" : text, size: px(style.layout == .rows ? 16 : Self.textPoints), width: textWidth)
        guard style.stamps, !cursor else {
            return block(message, content: .text(layout, cursor: cursor), contentWidth: layout.width, contentHeight: layout.height)
        }
        // The time (and a sent message's ticks) ends the last line when it fits there, else has a line of its own.
        let stamp = typesetter.layout(Self.time, size: px(11))
        let stampWidth = stamp.width + (sides[message.character] == .right ? px(Self.ticksPoints) : 0)
        let sameLine = pango_layout_get_line_count(layout.pointer) == 1 && layout.width + px(8) + stampWidth <= textWidth
        return block(
            message, content: .text(layout, cursor: false), stamp: stamp,
            contentWidth: sameLine ? layout.width + px(8) + stampWidth : max(layout.width, stampWidth),
            contentHeight: sameLine ? layout.height : layout.height + stamp.height)
    }

    func indicator(for message: ChatMessageLine, phase: Int) -> ChatBlock {
        block(message, content: .indicator(phase: phase), contentWidth: px(38), contentHeight: px(20))
    }

    private func block(
        _ message: ChatMessageLine, content: ChatBlock.Content, stamp: TextLayout? = nil, contentWidth: Double, contentHeight: Double
    ) -> ChatBlock {
        let sender = characters[message.character]!
        let side = sides[message.character] ?? .left
        switch style.layout {
        case .bubbles:
            let name = inGroup && side == .left ? typesetter.layout(sender.name, size: px(12)) : nil
            let nameHeight = name.map { $0.height + px(2) } ?? 0
            let bare = content.isBare
            let width = bare ? contentWidth : max(contentWidth + px(24), px(36))
            let height = contentHeight + (bare ? 0 : px(16))
            let x = side == .right ? geometry.right - px(14) - width : geometry.x(inGroup ? 14 + Self.groupAvatarPoints + 6 : 14)
            return ChatBlock(
                content: content, side: side, sender: sender, name: name, stamp: stamp,
                height: Int((nameHeight + height + px(Self.gapPoints)).rounded(.up)),
                bubble: (x, nameHeight, width, height))
        case .rows:
            let name = typesetter.layout(sender.name, size: px(16), weight: PANGO_WEIGHT_SEMIBOLD)
            let height = max(name.height + px(4) + contentHeight, px(42))
            return ChatBlock(
                content: content, side: side, sender: sender, name: name, stamp: stamp, height: Int((height + px(16)).rounded(.up)),
                bubble: (geometry.x(72), name.height + px(4), contentWidth, contentHeight))
        }
    }

    /// Draws `block` with its top at `y` pixels.
    func draw(_ block: ChatBlock, on canvas: Canvas, y: Int) {
        let top = Double(y)
        let bubble = block.bubble
        let sent = block.side == .right
        switch style.layout {
        case .bubbles:
            if let name = block.name {
                canvas.draw(name, x: bubble.x + px(12), y: top, style.secondaryText)
            }
            if inGroup && !sent {
                let radius = px(Self.groupAvatarPoints / 2)
                ChatAvatar(block.sender).draw(
                    on: canvas, centerX: geometry.x(14) + radius, centerY: top + bubble.y + bubble.height - radius, radius: radius,
                    typesetter: typesetter)
            }
            if case .largeEmoji(let layout) = block.content {
                canvas.draw(layout, x: bubble.x - layout.left, y: top + bubble.y, style.receivedText)
                return
            }
            let color = sent ? style.sentBubble : style.receivedBubble
            if case .text = block.content {
                switch style.tail {
                case .none: break
                case .curvedBottom:
                    drawCurvedTail(x: bubble.x, y: top + bubble.y, width: bubble.width, height: bubble.height, sent: sent, color, on: canvas)
                case .topCorner: drawTopTail(x: bubble.x, y: top + bubble.y, width: bubble.width, sent: sent, color, on: canvas)
                }
            }
            canvas.fillRoundedRect(
                x: bubble.x, y: top + bubble.y, width: bubble.width, height: bubble.height, radius: px(style.bubbleRadius), color)
            switch block.content {
            case .text(let layout, _):
                // From the text's own left edge: a right-to-left paragraph is aligned right within the wrap width, and the
                // bubble is sized to the text, not to that width.
                canvas.draw(layout, x: bubble.x + px(12) - layout.left, y: top + bubble.y + px(8), sent ? style.sentText : style.receivedText)
            case .largeEmoji: break
            case .indicator(let phase):
                drawDots(phase: phase, centerX: bubble.x + bubble.width / 2, centerY: top + bubble.y + bubble.height / 2, on: canvas)
            }
            if let stamp = block.stamp {
                drawStamp(stamp, right: bubble.x + bubble.width - px(8), bottom: top + bubble.y + bubble.height - px(5), sent: sent, on: canvas)
            }
        case .rows:
            ChatAvatar(block.sender).draw(on: canvas, centerX: geometry.x(36), centerY: top + px(20), radius: px(20), typesetter: typesetter)
            if let name = block.name {
                canvas.draw(name, x: bubble.x, y: top, ChatColor(hex: block.sender.color).map(RGBColor.init) ?? style.receivedText)
            }
            switch block.content {
            case .text(let layout, _), .largeEmoji(let layout):
                canvas.draw(layout, x: bubble.x, y: top + bubble.y, style.receivedText)
            case .indicator(let phase):
                drawDots(phase: phase, centerX: bubble.x + px(19), centerY: top + bubble.y + px(10), on: canvas)
            }
        }
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
