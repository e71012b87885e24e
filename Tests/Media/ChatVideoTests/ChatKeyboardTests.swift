import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

/// The keyboard and the field as the phone's owner types in the field (iMessage, light, 9:16): the key struck pops up,
/// the keycaps follow the shift, emoji are typed on the emoji keyboard, and the field grows with its lines.
@Suite struct ChatKeyboardTests {
    static let scale = ChatThemeDetailTests.portraitScale
    static let white = (UInt8(0xFF), UInt8(0xFF), UInt8(0xFF))

    /// "Yes! 👍🏽👨‍👩‍👧" typed to its first `characters` in the field (none: the empty field).
    static func picture(_ renderer: ChatRenderer, after characters: Int) -> Picture {
        renderer.render(ChatFrameState(sent: 1, activity: characters == 0 ? .idle : .composing(message: 1, characters: characters)))
        return Picture(renderer)
    }

    /// The keyboard's top row, in pixels: a portrait keyboard is 216 points high.
    static func keyboardTop(_ picture: Picture) -> Int { picture.height - Int((216 * scale).rounded()) }

    /// The pixels of `picture` in a rectangle given in points from the keyboard's top-left corner.
    static func keyboardRegion(_ picture: Picture, x: Range<Double>, y: Range<Double>) -> [UInt8] {
        let top = keyboardTop(picture)
        return picture.pixels(
            rows: (top + Int(y.lowerBound * scale))..<(top + Int(y.upperBound * scale)),
            columns: Int(x.lowerBound * scale)..<Int(x.upperBound * scale))
    }

    /// After "Yes" the S key pops up: its white cap covers the grey gap between the top two rows over the S and nowhere
    /// else; with the field empty no key does, and after the emoji the emoji keyboard has replaced the letter keys.
    @Test func theKeyStruckPopsUpAndEmojiAreTypedOnTheEmojiKeyboard() throws {
        let renderer = ChatRenderer(Conversations.short { $0.typingStyle = .field }, watermark: false)
        /// The white across the gap between the top row (8 to 50 points down) and the middle row (from 62).
        func capAcrossTheGap(_ picture: Picture) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
            let gap = Self.keyboardTop(picture) + Int(56 * Self.scale)
            return picture.bounds(rows: gap..<(gap + 1)) { ($0, $1, $2) == Self.white }
        }
        #expect(capAcrossTheGap(Self.picture(renderer, after: 0)) == nil, "a key pops up with nothing typed")
        let cap = try #require(capAcrossTheGap(Self.picture(renderer, after: 3)), "no key pops up after \"Yes\"")
        // The S is the middle row's second key, 61 to 95 points from the left; its cap reaches 12 points further each way.
        #expect(cap.minX > Int(45 * Self.scale) && cap.maxX < Int(110 * Self.scale), "the cap spans \(cap.minX)–\(cap.maxX), not over the S")
        // Across the bottom row (191 points down) the letter keyboard's space bar is white; the emoji keyboard has the
        // categories there instead, on grey.
        func whiteAcrossTheBottomRow(_ picture: Picture) -> Int {
            let row = Self.keyboardTop(picture) + Int(191 * Self.scale)
            return (0..<picture.width).count { x in
                let index = (row * picture.width + x) * 3
                return (picture.rgb[index], picture.rgb[index + 1], picture.rgb[index + 2]) == Self.white
            }
        }
        #expect(whiteAcrossTheBottomRow(Self.picture(renderer, after: 3)) > Int(150 * Self.scale), "no space bar after \"Yes\"")
        #expect(whiteAcrossTheBottomRow(Self.picture(renderer, after: 6)) == 0, "the letter keys after 👍🏽")
    }

    /// Capitals before the first letter and after a capital, lowercase after a lowercase letter: the Q key reads "Q" with
    /// the field empty and after "Y", "q" after "Ye".
    @Test func theKeycapsAreLowercaseAfterTheFirstLetter() {
        let renderer = ChatRenderer(Conversations.short { $0.typingStyle = .field }, watermark: false)
        func qKey(after characters: Int) -> [UInt8] {
            Self.keyboardRegion(Self.picture(renderer, after: characters), x: 4..<36, y: 9..<49)
        }
        let empty = qKey(after: 0)
        #expect(qKey(after: 1) == empty, "the Q key changed after a capital")
        #expect(qKey(after: 2) != empty, "the Q key still reads the same after a lowercase letter")
    }

    /// The field grows a line at a time as its words wrap, up to five lines, and then stays: its top rises by one line
    /// for two lines, by four for a long message, and no further for a longer one. A word longer than the field wraps
    /// inside it instead of scrolling it sideways.
    @Test func theFieldGrowsWithItsLinesUpToFive() throws {
        let word = "supercalifragilisticexpialidocious-level"
        let texts = [
            "Yes", "one line and then another one here", String(repeating: "a few words more ", count: 12), String(repeating: "and more ", count: 60),
            word,
        ]
        let input = Conversations.with(messages: [("sam", "Hi")] + texts.map { ("me", $0) }) { $0.typingStyle = .field }
        let renderer = ChatRenderer(input, watermark: false)
        let border = (UInt8(0xC7), UInt8(0xC7), UInt8(0xCC))
        /// The field's top edge with message `index` typed in it whole.
        func fieldTop(_ index: Int) throws -> Int {
            renderer.render(
                ChatFrameState(sent: index, activity: .composing(message: index, characters: input.conversation.messages[index].text.count)))
            let picture = Picture(renderer)
            return try #require(picture.bounds(rows: (picture.height / 3)..<Self.keyboardTop(picture)) { ($0, $1, $2) == border }).minY
        }
        let one = try fieldTop(1)
        let line = Double(one - (try fieldTop(2))) / Self.scale
        #expect(line > 17 && line < 25, "two lines grew the field by \(line) points")
        let five = Double(one - (try fieldTop(3))) / Self.scale
        #expect(abs(five - 4 * line) < 2, "five lines grew the field by \(five) points, a line being \(line)")
        #expect(try fieldTop(4) == (try fieldTop(3)), "the field grew past five lines")
        #expect(try fieldTop(5) < one, "a word too long for the field did not wrap in it")
    }
}
