/// A message of one to three emoji and nothing else, which the apps draw large and without a bubble.
enum LargeEmoji {
    static let maxCount = 3
    /// Their size, in points (the text's is 17).
    static let points = 48.0

    static func applies(to text: String) -> Bool {
        let emoji = text.filter { !$0.isWhitespace }
        return (1...maxCount).contains(emoji.count) && emoji.allSatisfy(isEmoji)
    }

    /// Drawn as an emoji picture: one with emoji presentation by default (😂), or a sequence that asks for it (❤️, 👍🏽,
    /// 👨‍👩‍👧, 🇫🇷). A digit or `#`, which are emoji only as part of a keycap, is not.
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.properties.isEmoji else { return false }
        return first.properties.isEmojiPresentation || scalars.count > 1
    }
}
