import CPangoCairo
import Foundation
public import ChatTaleInputs
import Drawing

/// Draws the pictures of a chat video into one frame buffer, from cached layers: the status bar, header, input bar
/// and keyboard are drawn once; each finished message once, into a layer of its own that is copied while it is on
/// screen; per picture only the message being typed (or the "…") is laid out and drawn, and only the rows that
/// changed are redrawn when nothing scrolled.
public final class ChatRenderer {
    public let width: Int
    public let height: Int
    private let geometry: ChatGeometry
    private let style: ChatStyle
    private let typesetter = Typesetter()
    private let blocks: ChatBlockMaker
    private let chrome: ChatChrome
    private let messages: [ChatMessageLine]
    /// Each message's grapheme clusters, so typing shows whole characters only.
    private let clusters: [[Character]]
    /// Heights of the finished messages before each index: `offsets[i]` is where message `i` starts below the first.
    private let offsets: [Int]
    private let frame: CairoSurface
    /// Each finished message's layer, drawn with or without its run's last marks (iMessage's tail and picture).
    private var finishedLayers: [Int: (layer: CairoSurface, endsRun: Bool)] = [:]
    /// The free tier's mark, drawn with the chrome.
    private let watermark: ChatWatermark?
    private var previous: (sent: Int, scroll: Int, active: PixelRect?, lastEndsRun: Bool, field: String?, pressed: String?)?
    /// The heights of the message being typed at each number of characters, to ease the scroll as it grows.
    private var typedHeights: (message: Int, heights: [Int: Int]) = (-1, [:])
    /// The pictures over which a jump of the scroll is eased in the bubble style: the characters typed in a quarter
    /// of a second, and the "…"'s wave steps in as long, when the "…" lasts one wave (its steps do not repeat).
    private let easedCharacters: Int
    private let easedIndicatorPhases: Int
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
        let title = group ? conversation.title ?? others.map(\.name).joined(separator: ", ") : contact.name
        chrome = ChatChrome(
            geometry: geometry, style: style, typesetter: typesetter, title: title,
            avatars: group && !others.isEmpty ? others.prefix(3).map(ChatAvatar.init) : [ChatAvatar(contact)],
            subtitle: group && style.memberSubtitle ? (others.map(\.name) + ["You"]).joined(separator: ", ") : nil)
        messages = conversation.messages
        clusters = messages.map { Array($0.text) }
        var offsets = [0]
        for (index, message) in messages.enumerated() {
            offsets.append(offsets.last! + blocks.block(for: index, text: message.text, cursor: false, endsRun: true).height)
        }
        self.offsets = offsets
        let pacing = ChatPacing(settings)
        let bubbleStyle = settings.typingStyle == .bubble
        easedCharacters = max(1, Int((Double(ChatTimeline.arrivalTicks(fps: pacing.fps)) / Double(pacing.ticksPerCharacter)).rounded(.up)))
        easedIndicatorPhases = bubbleStyle && pacing.indicatorTicks <= pacing.fps ? ChatTimeline.indicatorPhases / 4 : 0
        indicatorBeforeTyping = pacing.indicatorTicks > 0
        frame = CairoSurface(width: width, height: height, opaque: true)
        self.watermark = watermark ? ChatWatermark(geometry: geometry, typesetter: typesetter) : nil
        frame.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: width, height: height), style.background)
            chrome.draw(on: canvas)
            self.watermark?.draw(on: canvas)
        }
    }

    /// The frame's pixels: `height` rows of ``stride`` bytes, BGRA.
    public var pixels: UnsafePointer<UInt8> { UnsafePointer(frame.pixels) }
    public var stride: Int { frame.stride }

    /// Draws `state` over the previous picture and returns the rows that changed (all of them the first time, as the
    /// header, input bar and keyboard are new then too).
    @discardableResult
    public func render(_ state: ChatFrameState) -> Range<Int> {
        let first = previous == nil
        let active = activeBlock(state)
        let scroll = scrollOffset(state, active: active)
        let firstMessageY = geometry.viewport.y + padding - scroll
        let activeRect = active.map {
            PixelRect(x: 0, y: activeY(state, restingY: firstMessageY + offsets[state.sent]), width: width, height: $0.height)
        }
        let lastEndsRun = state.sent > 0 && endsRun(state.sent - 1, state, active: active)
        var dirty = geometry.viewport
        if let previous, previous.sent == state.sent, previous.scroll == scroll {
            // Only the message being typed (or the "…") changed, and the one above it when it lost or regained its run's marks.
            var changed = [previous.active, activeRect].compactMap { $0 }
            if previous.lastEndsRun != lastEndsRun {
                let index = state.sent - 1
                changed.append(
                    PixelRect(x: 0, y: firstMessageY + offsets[index], width: width, height: offsets[index + 1] - offsets[index]))
            }
            dirty = changed.dropFirst().reduce(changed.first ?? PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
                .intersection(geometry.viewport)
        }
        let field = fieldText(state)
        let pressed = pressedKey(field)
        let fieldChanged = previous.map { $0.field != field } ?? true
        let keyChanged = previous.map { $0.pressed != pressed } ?? true
        previous = (state.sent, scroll, activeRect, lastEndsRun, field, pressed)
        // The input bar sits right on the keyboard: their rows are one range.
        var inputRows = 0..<0
        if fieldChanged {
            frame.draw { canvas in
                canvas.clipped(to: geometry.inputBar) { chrome.drawInputBar(field: field, on: canvas) }
            }
            inputRows = geometry.inputBar.y..<geometry.inputBar.maxY
        }
        if keyChanged {
            frame.draw { canvas in
                canvas.clipped(to: geometry.keyboard) { chrome.drawKeyboard(pressed: pressed, on: canvas) }
            }
            inputRows = (inputRows.isEmpty ? geometry.keyboard.y : inputRows.lowerBound)..<geometry.keyboard.maxY
        }
        guard dirty.height > 0 else { return first ? 0..<height : inputRows }
        frame.draw { canvas in
            canvas.clipped(to: dirty) {
                canvas.fill(dirty, style.background)
                for index in 0..<state.sent {
                    let y = firstMessageY + offsets[index]
                    let bottom = firstMessageY + offsets[index + 1]
                    if bottom <= geometry.viewport.y {
                        // Scrolled away for good: the chat only ever scrolls down.
                        finishedLayers[index] = nil
                        continue
                    }
                    guard bottom > dirty.y, y < dirty.maxY else { continue }
                    canvas.paint(finishedLayer(index, endsRun: endsRun(index, state, active: active)), x: 0, y: y)
                }
                if let active, let activeRect { blocks.draw(active, on: canvas, y: activeRect.y) }
            }
        }
        if first { return 0..<height }
        return inputRows.isEmpty ? dirty.y..<dirty.maxY : min(dirty.y, inputRows.lowerBound)..<max(dirty.maxY, inputRows.upperBound)
    }

    /// Draws `state` from nothing, laying out and drawing every element, as a renderer without caches would: what
    /// the benchmark's naive pipeline does per frame, and the reference the cached path must equal.
    public func renderFromScratch(_ state: ChatFrameState) {
        let active = activeBlock(state)
        let firstMessageY = geometry.viewport.y + padding - scrollOffset(state, active: active)
        frame.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: width, height: height), style.background)
            chrome.draw(on: canvas)
            chrome.drawInputBar(field: fieldText(state), on: canvas)
            chrome.drawKeyboard(pressed: pressedKey(fieldText(state)), on: canvas)
            watermark?.draw(on: canvas)
            canvas.clipped(to: geometry.viewport) {
                for index in 0..<state.sent {
                    let block = blocks.block(for: index, text: messages[index].text, cursor: false, endsRun: endsRun(index, state, active: active))
                    blocks.draw(block, on: canvas, y: firstMessageY + offsets[index])
                }
                if let active { blocks.draw(active, on: canvas, y: activeY(state, restingY: firstMessageY + offsets[state.sent])) }
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
        let active = activeBlock(state)
        let firstMessageY = geometry.viewport.y + padding - scrollOffset(state, active: active)
        func placement(_ index: Int, _ block: ChatBlock, y: Int) -> ChatMessagePlacement {
            let top = Double(y) + block.bubble.y
            return ChatMessagePlacement(
                message: index, top: Int(top.rounded()), bottom: Int((top + block.bubble.height).rounded()), left: Int(block.bubble.x.rounded()),
                right: Int((block.bubble.x + block.bubble.width).rounded()), showsName: block.name != nil, showsTail: block.tail,
                showsAvatar: block.avatar)
        }
        var placements = (0..<state.sent).map { index in
            let block = blocks.block(for: index, text: messages[index].text, cursor: false, endsRun: endsRun(index, state, active: active))
            return placement(index, block, y: firstMessageY + offsets[index])
        }
        if let active {
            placements.append(placement(state.sent, active, y: activeY(state, restingY: firstMessageY + offsets[state.sent])))
        }
        return placements
    }

    private var padding: Int { Int(geometry.px(Self.paddingPoints).rounded()) }

    /// The block under way below the sent messages: the "…" of the other side (the phone's owner sees none of their
    /// own), the message being typed in its bubble, or the one arriving.
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

    /// The key held down as the last character of `field` is typed, when there is a keyboard to show it on.
    private func pressedKey(_ field: String?) -> String? {
        guard geometry.showsKeyboard, let last = field?.last else { return nil }
        return ChatChrome.key(for: last)
    }

    /// The words in the input field, when the state has some.
    private func fieldText(_ state: ChatFrameState) -> String? {
        state.activity.field.map { String(clusters[$0.message].prefix($0.characters)) }
    }

    /// How far `state`'s chat has scrolled. While a message arrives the scroll moves with it, eased out like it, from
    /// where it stood before (the field being typed in, or the other side's "…") to where the arrived message needs it.
    /// In the bubble style, where each character is a picture, a jump (a line more, the first character's bubble) is
    /// eased out the same way over the characters typed in a quarter of a second, and the "…" appearing over its first
    /// steps of the wave.
    private func scrollOffset(_ state: ChatFrameState, active: ChatBlock?) -> Int {
        let target = scrollOffset(sent: state.sent, activeHeight: active?.height ?? 0)
        switch state.activity {
        case .arriving(let message, let step, let steps):
            let sent = blocks.sides[messages[message].character] == .right
            let before = scrollOffset(sent: state.sent, activeHeight: sent ? 0 : blocks.indicator(for: message, phase: 0).height)
            return target - Int((Self.remaining(step: step, of: steps) * Double(target - before)).rounded())
        case .indicator(_, let phase) where active != nil && phase < easedIndicatorPhases:
            let before = scrollOffset(sent: state.sent, activeHeight: 0)
            return target - Int((Self.remaining(step: phase, of: easedIndicatorPhases) * Double(target - before)).rounded())
        case .typing(let message, let characters):
            // Each jump between consecutive characters still under way, with what is left of it.
            var left = 0.0
            for typed in max(1, characters - easedCharacters + 1)...characters {
                let jump =
                    scrollOffset(sent: state.sent, activeHeight: typedHeight(message, characters: typed))
                    - scrollOffset(sent: state.sent, activeHeight: typedHeight(message, characters: typed - 1))
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

    /// How far the chat has scrolled: none until it outgrows the screen, then enough to keep its end in view.
    private func scrollOffset(sent: Int, activeHeight: Int) -> Int {
        let content = padding + offsets[sent] + activeHeight + padding
        return max(0, content - geometry.viewport.height)
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
