/// The simulator's token rule, simple enough for clients to check usage exactly.
///
/// Input: one token per whitespace-separated word of the prompt text. Output: one token per streamed
/// piece, where a piece is a word together with the whitespace before it (see ``pieces(of:)``); so the
/// non-streamed text of a response counts the same as its stream of deltas.
enum TokenCount {
    /// Words separated by whitespace.
    static func words(in text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }

    /// `text` cut before each whitespace run that follows a non-whitespace character: `"Once upon a"` gives
    /// `["Once", " upon", " a"]`. Joined, the pieces are `text` again.
    static func pieces(of text: String) -> [String] {
        if let pieces = asciiPieces(of: text) { return pieces }
        var pieces: [String] = []
        var current = ""
        var currentHasWord = false
        var previousWasSpace = false
        for character in text {
            let isSpace = character.isWhitespace
            if isSpace, !previousWasSpace, currentHasWord {
                pieces.append(current)
                current = ""
                currentHasWord = false
            }
            current.append(character)
            currentHasWord = currentHasWord || !isSpace
            previousWasSpace = isSpace
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// ``pieces(of:)`` of ASCII text, cut by bytes; nil for any other text. The simulator's answers are ASCII prose, cut
    /// for each of a thousand calls as they start, and telling whitespace by `Character` was most of that. An ASCII
    /// whitespace `Character` is one of these bytes (or CR LF, whose CR starts the run).
    private static func asciiPieces(of text: String) -> [String]? {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var pieces: [String] = []
        var start = utf8.startIndex
        var currentHasWord = false
        var previousWasSpace = false
        for index in utf8.indices {
            let byte = utf8[index]
            let isSpace = byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
            if isSpace, !previousWasSpace, currentHasWord {
                pieces.append(String(text[start..<index]))
                start = index
                currentHasWord = false
            }
            currentHasWord = currentHasWord || !isSpace
            previousWasSpace = isSpace
        }
        if start < utf8.endIndex { pieces.append(String(text[start...])) }
        return pieces
    }
}
