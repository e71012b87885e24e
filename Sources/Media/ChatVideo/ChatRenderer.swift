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
    private var finishedLayers: [Int: CairoSurface] = [:]
    /// The free tier's mark, drawn with the chrome.
    private let watermark: ChatWatermark?
    private var previous: (sent: Int, scroll: Int, active: PixelRect?, field: String?, pressed: String?)?

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
            inGroup: conversation.characters.count > 2)
        let others = conversation.characters.filter { sides[$0.id] == .left }
        let contact = others.first ?? conversation.characters[0]
        let group = conversation.characters.count > 2
        let title = group ? conversation.title ?? others.map(\.name).joined(separator: ", ") : contact.name
        chrome = ChatChrome(
            geometry: geometry, style: style, typesetter: typesetter, title: title,
            avatars: group && !others.isEmpty ? others.prefix(3).map(ChatAvatar.init) : [ChatAvatar(contact)],
            typesInField: settings.typingStyle == .field)
        messages = conversation.messages
        clusters = messages.map { Array($0.text) }
        var offsets = [0]
        for message in messages {
            offsets.append(offsets.last! + blocks.block(for: message, text: message.text, cursor: false).height)
        }
        self.offsets = offsets
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
        var dirty = geometry.viewport
        if let previous, previous.sent == state.sent, previous.scroll == scroll {
            // Only the message being typed (or the "…") changed.
            let changed = [previous.active, activeRect].compactMap { $0 }
            dirty = changed.dropFirst().reduce(changed.first ?? PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
                .intersection(geometry.viewport)
        }
        let field = fieldText(state)
        let pressed = pressedKey(field)
        let fieldChanged = previous.map { $0.field != field } ?? true
        let keyChanged = previous.map { $0.pressed != pressed } ?? true
        previous = (state.sent, scroll, activeRect, field, pressed)
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
                    canvas.paint(finishedLayer(index), x: 0, y: y)
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
                    let block = blocks.block(for: messages[index], text: messages[index].text, cursor: false)
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

    private var padding: Int { Int(geometry.px(Self.paddingPoints).rounded()) }

    private func activeBlock(_ state: ChatFrameState) -> ChatBlock? {
        switch state.activity {
        case .idle: nil
        case .indicator(let message, let phase): blocks.indicator(for: messages[message], phase: phase)
        case .typing(let message, let characters):
            blocks.block(for: messages[message], text: String(clusters[message].prefix(characters)), cursor: true)
        case .composing: nil
        case .arriving(let message, _, _): blocks.block(for: messages[message], text: messages[message].text, cursor: false)
        }
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
    private func scrollOffset(_ state: ChatFrameState, active: ChatBlock?) -> Int {
        let target = scrollOffset(sent: state.sent, active: active)
        guard case .arriving(let message, let step, let steps) = state.activity else { return target }
        let sent = blocks.sides[messages[message].character] == .right
        let before = scrollOffset(sent: state.sent, active: sent ? nil : blocks.indicator(for: messages[message], phase: 0))
        return target - Int((Self.remaining(step: step, of: steps) * Double(target - before)).rounded())
    }

    /// What is left of an arrival's way at `step` of `steps`: cubic ease-out, fast then settling, never quite 0 or 1.
    private static func remaining(step: Int, of steps: Int) -> Double {
        pow(1 - Double(step + 1) / Double(steps + 1), 3)
    }

    /// How far the chat has scrolled: none until it outgrows the screen, then enough to keep its end in view.
    private func scrollOffset(sent: Int, active: ChatBlock?) -> Int {
        let content = padding + offsets[sent] + (active?.height ?? 0) + padding
        return max(0, content - geometry.viewport.height)
    }

    /// Message `index`, finished, in a layer of its own (drawn the first time it is needed).
    private func finishedLayer(_ index: Int) -> CairoSurface {
        if let layer = finishedLayers[index] { return layer }
        let layer = CairoSurface(width: width, height: offsets[index + 1] - offsets[index], opaque: true)
        layer.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: layer.width, height: layer.height), style.background)
            blocks.draw(blocks.block(for: messages[index], text: messages[index].text, cursor: false), on: canvas, y: 0)
        }
        finishedLayers[index] = layer
        return layer
    }
}
