import CPangoCairo
import Foundation
public import ChatTaleInputs
import Drawing

/// Draws the pictures of a chat video into one frame buffer, from cached layers: the status bar and header are drawn
/// once, the input bar and keyboard when the field changes; each finished message once, into a layer of its own that
/// is copied while it is on screen; per picture only the message being typed (or the "…") is laid out and drawn, and
/// only the rows that changed are redrawn when nothing scrolled.
public final class ChatRenderer {
    public let width: Int
    public let height: Int
    private let geometry: ChatGeometry
    private let style: ChatStyle
    private let typesetter = Typesetter()
    private let blocks: ChatBlockMaker
    private let chrome: ChatChrome
    private let inputBar: ChatInputBar
    private let keyboard: ChatKeyboard
    /// iMessage's "iMessage / Today 9:41" over the first message, and its receipts.
    private let heading: ChatHeading?
    private let receiptLabel: ChatReceipt?
    /// Whether the other side's receipts say "Read": a group's only say "Delivered".
    private let readReceipts: Bool
    private let messages: [ChatMessageLine]
    /// Each message's grapheme clusters, so typing shows whole characters only.
    private let clusters: [[Character]]
    /// Heights of the finished messages before each index: `offsets[i]` is where message `i` starts below the first.
    private let offsets: [Int]
    /// Where each finished message's last balloon ends, below its block's top: where its receipt goes.
    private let balloonBottoms: [Double]
    /// The phone's owner's latest message before each index, `ownLatest[i]` of the first `i` messages.
    private let ownLatest: [Int?]
    private let frame: CairoSurface
    /// Each finished message's layer, drawn with or without its run's last marks (iMessage's tail and picture).
    private var finishedLayers: [Int: (layer: CairoSurface, endsRun: Bool)] = [:]
    /// The free tier's mark, drawn with the chrome.
    private let watermark: ChatWatermark?
    /// What the previous picture drew, to redraw only what changed.
    private struct Drawn {
        let sent: Int
        let scroll: Int
        let active: PixelRect?
        let lastEndsRun: Bool
        let field: String?
        let growth: Int
        let receipt: Receipt?
    }

    private var previous: Drawn?
    /// The heights of the message being typed at each number of characters, to ease the scroll as it grows.
    private var typedHeights: (message: Int, heights: [Int: Int]) = (-1, [:])
    /// The pictures over which a jump of the scroll is eased: the characters typed in a quarter of a second (bubble
    /// style), and the steps of the "…"'s first wave in as long (its later waves' steps are told apart from them).
    private let easedCharacters: Int
    private static let easedIndicatorPhases = ChatTimeline.indicatorStepsPerSecond / 4
    /// Before the first character of a message typed in its bubble, the "…" stood there (the other side's, when on).
    private let indicatorBeforeTyping: Bool

    /// Space above the first message and below the last, in points.
    static let paddingPoints = 10.0

    /// - Parameter watermark: the free tier's "Made with ChatTale" mark.
    public init(_ input: ChatExportInput, watermark: Bool) {
        let settings = input.settings
        geometry = ChatGeometry(format: settings.format, keyboard: settings.keyboard)
        width = geometry.width
        height = geometry.height
        style = ChatStyle(theme: settings.theme, dark: settings.darkMode)
        let conversation = input.conversation
        let sides = settings.sides(of: conversation.characters)
        let characters = Dictionary(conversation.characters.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        blocks = ChatBlockMaker(
            geometry: geometry, style: style, typesetter: typesetter, sides: sides, characters: characters,
            messages: conversation.messages, inGroup: conversation.characters.count > 2)
        let others = conversation.characters.filter { sides[$0.id] == .left }
        let contact = others.first ?? conversation.characters[0]
        let group = conversation.characters.count > 2
        inputBar = ChatInputBar(geometry: geometry, style: style, typesetter: typesetter)
        keyboard = ChatKeyboard(geometry: geometry, style: style, typesetter: typesetter)
        heading = style.heading ? ChatHeading(geometry: geometry, style: style, typesetter: typesetter) : nil
        receiptLabel = style.receipts ? ChatReceipt(geometry: geometry, style: style, typesetter: typesetter) : nil
        readReceipts = !group
        let title = group ? conversation.title ?? others.map(\.name).joined(separator: ", ") : contact.name
        chrome = ChatChrome(
            geometry: geometry, style: style, typesetter: typesetter, title: title,
            avatars: group && !others.isEmpty ? others.prefix(3).map(ChatAvatar.init) : [ChatAvatar(contact)],
            subtitle: group && style.memberSubtitle ? (others.map(\.name) + ["You"]).joined(separator: ", ") : nil)
        messages = conversation.messages
        clusters = messages.map { Array($0.text) }
        var offsets = [0]
        var balloonBottoms: [Double] = []
        var ownLatest: [Int?] = [nil]
        for (index, message) in messages.enumerated() {
            let block = blocks.block(for: index, text: message.text, cursor: false, endsRun: true)
            offsets.append(offsets.last! + block.height)
            balloonBottoms.append(block.lastBalloon.y + block.lastBalloon.height)
            ownLatest.append(sides[message.character] == .right ? index : ownLatest.last!)
        }
        (self.offsets, self.balloonBottoms, self.ownLatest) = (offsets, balloonBottoms, ownLatest)
        let pacing = ChatPacing(settings)
        easedCharacters = max(1, Int((Double(ChatTimeline.arrivalTicks(fps: pacing.fps)) / Double(pacing.ticksPerCharacter)).rounded(.up)))
        indicatorBeforeTyping = pacing.indicatorTicks > 0
        frame = CairoSurface(width: width, height: height, opaque: true)
        self.watermark = watermark ? ChatWatermark(geometry: geometry, typesetter: typesetter) : nil
        frame.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: width, height: height), style.background)
            chrome.draw(on: canvas)
            inputBar.draw(nil, on: canvas)
            keyboard.draw(ChatKeyboard.state(after: nil), on: canvas)
            self.watermark?.draw(on: canvas)
        }
    }

    /// The frame's pixels: `height` rows of ``stride`` bytes, BGRA.
    public var pixels: UnsafePointer<UInt8> { UnsafePointer(frame.pixels) }
    public var stride: Int { frame.stride }

    /// Where the receipt stands in a picture: under message `index`, read or not, drawn or (while that message is typed
    /// in its bubble) only its space kept. Moving on from the owner's previous message, it takes its space from there
    /// over a few pictures: `leaving` still holds the `remaining` share of it.
    private struct Receipt: Equatable {
        let index: Int
        let read: Bool
        let shown: Bool
        let leaving: Int?
        let remaining: Double
    }

    /// The receipt's space in pixels under its message and under the one it is leaving; together, one receipt's.
    private func spaces(_ receipt: Receipt) -> (here: Int, leaving: Int) {
        let height = receiptLabel?.height ?? 0
        let leaving = receipt.leaving == nil ? 0 : Int((Double(height) * receipt.remaining).rounded())
        return (height - leaving, leaving)
    }

    /// What one picture places where, besides the finished messages' layers.
    private struct Scene {
        let active: ChatBlock?
        let field: ChatInputBar.Field?
        let receipt: Receipt?
        /// The messages' band, above the input bar as the field has grown it.
        let viewport: PixelRect
        let scroll: Int
        /// Where the first message's block starts.
        let firstMessageY: Int
        /// The active block's place, its receipt under it included when it has one.
        let activeRect: PixelRect?
    }

    private func scene(_ state: ChatFrameState) -> Scene {
        let active = activeBlock(state)
        let field = inputBar.field(fieldText(state))
        let receipt = receipt(state)
        let viewport = viewport(growth: field?.growth ?? 0)
        let scroll = scrollOffset(state, active: active, receipt: receipt, viewport: viewport)
        let firstMessageY = viewport.y + padding + leading - scroll
        let activeRect = active.map {
            PixelRect(
                x: 0, y: activeY(state, restingY: firstMessageY + top(state.sent, receipt)), width: width,
                height: $0.height + (receipt.map { $0.index == state.sent ? spaces($0).here : 0 } ?? 0))
        }
        return Scene(
            active: active, field: field, receipt: receipt, viewport: viewport, scroll: scroll, firstMessageY: firstMessageY, activeRect: activeRect)
    }

    /// Draws `state` over the previous picture and returns the rows that changed (all of them the first time, as the
    /// header, input bar and keyboard are new then too).
    @discardableResult
    public func render(_ state: ChatFrameState) -> Range<Int> {
        let first = previous == nil
        let scene = scene(state)
        let lastEndsRun = state.sent > 0 && endsRun(state.sent - 1, state, active: scene.active)
        var dirty = scene.viewport
        if let previous, previous.sent == state.sent, previous.scroll == scene.scroll, previous.growth == (scene.field?.growth ?? 0),
            previous.receipt == scene.receipt
        {
            // Only the message being typed (or the "…") changed, and the one above it when it lost or regained its run's marks.
            var changed = [previous.active, scene.activeRect].compactMap { $0 }
            if previous.lastEndsRun != lastEndsRun {
                let index = state.sent - 1
                let y = scene.firstMessageY + top(index, scene.receipt)
                changed.append(PixelRect(x: 0, y: y, width: width, height: scene.firstMessageY + top(index + 1, scene.receipt) - y))
            }
            dirty = changed.dropFirst().reduce(changed.first ?? PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
                .intersection(scene.viewport)
        }
        let fieldChanged = previous.map { $0.field != scene.field?.text } ?? true
        previous = Drawn(
            sent: state.sent, scroll: scene.scroll, active: scene.activeRect, lastEndsRun: lastEndsRun, field: scene.field?.text,
            growth: scene.field?.growth ?? 0, receipt: scene.receipt)
        // The input bar sits right on the keyboard, and a key's pop-up reaches over it: they are drawn together.
        var inputRows = 0..<0
        if fieldChanged {
            let bar = inputBar.rect(for: scene.field)
            frame.draw { canvas in
                canvas.clipped(to: bar) { inputBar.draw(scene.field, on: canvas) }
                canvas.clipped(to: bar.union(geometry.keyboard)) { keyboard.draw(ChatKeyboard.state(after: scene.field?.text), on: canvas) }
            }
            inputRows = bar.y..<geometry.keyboard.maxY
        }
        guard dirty.height > 0 else { return first ? 0..<height : inputRows }
        frame.draw { canvas in
            canvas.clipped(to: dirty) {
                canvas.fill(dirty, style.background)
                drawMessages(state, scene, on: canvas, within: dirty)
            }
        }
        if first { return 0..<height }
        return inputRows.isEmpty ? dirty.y..<dirty.maxY : min(dirty.y, inputRows.lowerBound)..<max(dirty.maxY, inputRows.upperBound)
    }

    /// The heading, the finished messages from their layers, the receipt and the active block, in the rows of `dirty`.
    private func drawMessages(_ state: ChatFrameState, _ scene: Scene, on canvas: Canvas, within dirty: PixelRect) {
        for index in 0..<state.sent {
            let y = scene.firstMessageY + top(index, scene.receipt)
            let bottom = y + offsets[index + 1] - offsets[index]
            if bottom <= scene.viewport.y {
                // Scrolled away for good: the chat only ever scrolls down.
                finishedLayers[index] = nil
                continue
            }
            guard bottom > dirty.y, y < dirty.maxY else { continue }
            canvas.paint(finishedLayer(index, endsRun: endsRun(index, state, active: scene.active)), x: 0, y: y)
        }
        if let active = scene.active, let activeRect = scene.activeRect { blocks.draw(active, on: canvas, y: activeRect.y) }
        drawAnnotations(state, scene, on: canvas)
    }

    /// The heading over the first message and the receipt under the owner's latest.
    private func drawAnnotations(_ state: ChatFrameState, _ scene: Scene, on canvas: Canvas) {
        heading?.draw(on: canvas, y: scene.firstMessageY - leading)
        if let receiptLabel, let receipt = scene.receipt, receipt.shown {
            let y = receipt.index == state.sent ? scene.activeRect?.y ?? 0 : scene.firstMessageY + top(receipt.index, receipt)
            receiptLabel.draw(read: receipt.read, under: Double(y) + balloonBottoms[receipt.index], on: canvas)
        }
    }

    /// Draws `state` from nothing, laying out and drawing every element, as a renderer without caches would: what
    /// the benchmark's naive pipeline does per frame, and the reference the cached path must equal.
    public func renderFromScratch(_ state: ChatFrameState) {
        let scene = scene(state)
        frame.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: width, height: height), style.background)
            chrome.draw(on: canvas)
            inputBar.draw(scene.field, on: canvas)
            keyboard.draw(ChatKeyboard.state(after: scene.field?.text), on: canvas)
            watermark?.draw(on: canvas)
            canvas.clipped(to: scene.viewport) {
                for index in 0..<state.sent {
                    let block = blocks.block(
                        for: index, text: messages[index].text, cursor: false, endsRun: endsRun(index, state, active: scene.active))
                    blocks.draw(block, on: canvas, y: scene.firstMessageY + top(index, scene.receipt))
                }
                if let active = scene.active, let activeRect = scene.activeRect { blocks.draw(active, on: canvas, y: activeRect.y) }
                drawAnnotations(state, scene, on: canvas)
            }
        }
        previous = nil
    }

    /// Writes the frame as it stands to a PNG file (golden pictures and previews).
    public func writePNG(to path: String) -> Bool {
        cairo_surface_write_to_png(frame.pointer, path) == CAIRO_STATUS_SUCCESS
    }

    /// Where each message on screen is drawn for `state` (the one under way included), and which of its run's marks it
    /// shows.
    public func layout(_ state: ChatFrameState) -> [ChatMessagePlacement] {
        let scene = scene(state)
        let active = scene.active
        func placement(_ index: Int, _ block: ChatBlock, y: Int) -> ChatMessagePlacement {
            let top = Double(y) + block.bubble.y
            return ChatMessagePlacement(
                message: index, top: Int(top.rounded()), bottom: Int((top + block.bubble.height).rounded()), left: Int(block.bubble.x.rounded()),
                right: Int((block.bubble.x + block.bubble.width).rounded()), showsName: block.name != nil, showsTail: block.tail,
                showsAvatar: block.avatar)
        }
        var placements = (0..<state.sent).map { index in
            let block = blocks.block(for: index, text: messages[index].text, cursor: false, endsRun: endsRun(index, state, active: active))
            return placement(index, block, y: scene.firstMessageY + top(index, scene.receipt))
        }
        if let active, let activeRect = scene.activeRect { placements.append(placement(state.sent, active, y: activeRect.y)) }
        return placements
    }

    private var padding: Int { Int(geometry.px(Self.paddingPoints).rounded()) }

    /// What stands above the first message: the heading, when the app shows one.
    private var leading: Int { heading?.height ?? 0 }

    /// Where message `index` starts below the first, after the receipt's space under earlier messages.
    private func top(_ index: Int, _ receipt: Receipt?) -> Int {
        guard let receipt else { return offsets[index] }
        let (here, leaving) = spaces(receipt)
        return offsets[index] + (receipt.index < index ? here : 0) + (receipt.leaving.map { $0 < index } == true ? leaving : 0)
    }

    /// The messages' band, its bottom raised by `growth` pixels of the input bar.
    private func viewport(growth: Int) -> PixelRect {
        PixelRect(x: geometry.viewport.x, y: geometry.viewport.y, width: geometry.viewport.width, height: geometry.viewport.height - growth)
    }

    /// Where the receipt stands in `state`: under the owner's latest sent message, read once a later message of the
    /// other side is under way or in. The owner's next message takes it as it arrives from the field, or as it starts
    /// being typed in its bubble (drawn once sent), its space leaving the previous one over the arrival's steps or the
    /// first characters typed in a quarter of a second: the messages between move up smoothly, not in one picture.
    private func receipt(_ state: ChatFrameState) -> Receipt? {
        guard receiptLabel != nil else { return nil }
        let previous = ownLatest[state.sent]
        var index = previous
        var (shown, remaining) = (true, 0.0)
        var later: Int?
        switch state.activity {
        case .arriving(let message, let step, let steps) where blocks.sides[messages[message].character] == .right:
            (index, remaining) = (message, Self.remaining(step: step, of: steps))
        case .typing(let message, let characters) where blocks.sides[messages[message].character] == .right:
            (index, shown) = (message, false)
            remaining = characters - 1 < easedCharacters ? Self.remaining(step: characters - 1, of: easedCharacters) : 0
        case .arriving(let message, _, _), .indicator(let message, _), .typing(let message, _): later = message
        case .idle, .composing: break
        }
        guard let index else { return nil }
        let answered =
            later.map { blocks.sides[messages[$0].character] != .right } == true
            || messages[min(index + 1, state.sent)..<state.sent].contains { blocks.sides[$0.character] != .right }
        let leaving = previous.flatMap { $0 < index && remaining > 0 ? $0 : nil }
        return Receipt(index: index, read: readReceipts && answered, shown: shown, leaving: leaving, remaining: leaving == nil ? 0 : remaining)
    }

    /// The block under way below the sent messages: the "…" of the other side, the message being typed in its bubble, or
    /// the one arriving. The timeline gives the phone's owner no "…" (they see none of their own); a state made by hand
    /// with one draws nothing there.
    private func activeBlock(_ state: ChatFrameState) -> ChatBlock? {
        switch state.activity {
        case .idle: nil
        case .indicator(let message, let phase):
            blocks.sides[messages[message].character] == .right ? nil : blocks.indicator(for: message, phase: phase)
        case .typing(let message, let characters): typingBlock(message, characters: characters)
        case .composing: nil
        case .arriving(let message, _, _): blocks.block(for: message, text: messages[message].text, cursor: false, endsRun: true)
        }
    }

    private func typingBlock(_ message: Int, characters: Int) -> ChatBlock {
        let block = blocks.block(for: message, text: String(clusters[message].prefix(characters)), cursor: true, endsRun: true)
        if typedHeights.message != message { typedHeights = (message, [:]) }
        typedHeights.heights[characters] = block.height
        return block
    }

    /// The height of message `message` typed to `characters` in its bubble (0: what stood there before it).
    private func typedHeight(_ message: Int, characters: Int) -> Int {
        if characters == 0 {
            let indicator = indicatorBeforeTyping && blocks.sides[messages[message].character] != .right
            return indicator ? blocks.indicator(for: message, phase: 0).height : 0
        }
        if typedHeights.message == message, let height = typedHeights.heights[characters] { return height }
        return typingBlock(message, characters: characters).height
    }

    /// Whether finished message `index` is the last of its run on screen in `state`: no later message of the run is
    /// there yet, finished or under way.
    private func endsRun(_ index: Int, _ state: ChatFrameState, active: ChatBlock?) -> Bool {
        guard blocks.continuesRun(index) else { return true }
        return index == state.sent - 1 && active == nil
    }

    /// Where the active block is drawn, `restingY` being its place: an arriving message is eased out (fast, then
    /// settling) from the input field when sent, or from 16 points lower when received.
    private func activeY(_ state: ChatFrameState, restingY: Int) -> Int {
        guard case .arriving(let message, let step, let steps) = state.activity else { return restingY }
        let remaining = Self.remaining(step: step, of: steps)
        let sent = blocks.sides[messages[message].character] == .right
        let distance = sent ? Double(max(0, geometry.inputBar.y - restingY)) : geometry.px(16)
        return restingY + Int((remaining * distance).rounded())
    }

    /// The words in the input field, when the state has some.
    private func fieldText(_ state: ChatFrameState) -> String? {
        state.activity.field.map { String(clusters[$0.message].prefix($0.characters)) }
    }

    /// How far `state`'s chat has scrolled. While a message arrives the scroll moves with it, eased out like it, from
    /// where it stood before (the field being typed in, or the other side's "…") to where the arrived message needs it.
    /// In the bubble style, where each character is a picture, a jump (a line more, the first character's bubble) is
    /// eased out the same way over the characters typed in a quarter of a second; in both styles the other side's "…"
    /// appearing, over the first steps of its wave. The band the chat scrolls in is `viewport`, the input bar as the
    /// field has grown it below.
    private func scrollOffset(_ state: ChatFrameState, active: ChatBlock?, receipt: Receipt?, viewport: PixelRect) -> Int {
        func offset(activeHeight: Int, receipt shown: Bool = receipt != nil, viewport: PixelRect = viewport) -> Int {
            let content = padding + leading + offsets[state.sent] + activeHeight + (shown ? receiptLabel?.height ?? 0 : 0) + padding
            return max(0, content - viewport.height)
        }
        let target = offset(activeHeight: active?.height ?? 0)
        switch state.activity {
        case .arriving(let message, let step, let steps):
            // Before it, the field held the whole message (the receipt still under the owner's one before), or the
            // other side's "…" stood in its place.
            let sent = blocks.sides[messages[message].character] == .right
            let before =
                sent
                ? offset(
                    activeHeight: 0, receipt: ownLatest[state.sent] != nil,
                    viewport: self.viewport(growth: inputBar.field(messages[message].text)?.growth ?? 0))
                : offset(activeHeight: blocks.indicator(for: message, phase: 0).height)
            return target - Int((Self.remaining(step: step, of: steps) * Double(target - before)).rounded())
        case .indicator(_, let phase) where active != nil && phase < Self.easedIndicatorPhases:
            let before = offset(activeHeight: 0)
            return target - Int((Self.remaining(step: phase, of: Self.easedIndicatorPhases) * Double(target - before)).rounded())
        case .typing(let message, let characters):
            // Each jump between consecutive characters still under way, with what is left of it. Before the first
            // character the owner's first message had no receipt's space yet.
            let receiptBefore = receipt != nil && (blocks.sides[messages[message].character] != .right || ownLatest[state.sent] != nil)
            var left = 0.0
            for typed in max(1, characters - easedCharacters + 1)...characters {
                let before = offset(activeHeight: typedHeight(message, characters: typed - 1), receipt: typed == 1 ? receiptBefore : receipt != nil)
                let jump = offset(activeHeight: typedHeight(message, characters: typed)) - before
                if jump != 0 { left += Double(jump) * Self.remaining(step: characters - typed, of: easedCharacters) }
            }
            return target - Int(left.rounded())
        default:
            return target
        }
    }

    /// What is left of an arrival's way at `step` of `steps`: cubic ease-out, fast then settling, never quite 0 or 1.
    private static func remaining(step: Int, of steps: Int) -> Double {
        pow(1 - Double(step + 1) / Double(steps + 1), 3)
    }

    /// Message `index`, finished, in a layer of its own (drawn the first time it is needed, and again when it gains or
    /// loses its run's last marks).
    private func finishedLayer(_ index: Int, endsRun: Bool) -> CairoSurface {
        if let cached = finishedLayers[index], cached.endsRun == endsRun { return cached.layer }
        let layer = CairoSurface(width: width, height: offsets[index + 1] - offsets[index], opaque: true)
        layer.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: layer.width, height: layer.height), style.background)
            blocks.draw(blocks.block(for: index, text: messages[index].text, cursor: false, endsRun: endsRun), on: canvas, y: 0)
        }
        finishedLayers[index] = (layer, endsRun)
        return layer
    }
}
