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
    ///
    /// ASCII text, all the simulator writes, is read byte by byte: its answers are cut for each of a thousand calls as
    /// they start, and telling whitespace by `Character` would be most of that. An ASCII whitespace `Character` is one of
    /// these bytes (or CR LF, whose CR starts the run), so the cuts are the same.
    static func pieces(of text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return cut(text, along: text.utf8) { $0 == UInt8(ascii: " ") || (0x09...0x0D).contains($0) }
        }
        return cut(text, along: text) { $0.isWhitespace }
    }

    /// `text` cut at the positions of `view` (its bytes or its characters) where whitespace follows a word.
    private static func cut<View: Collection>(_ text: String, along view: View, isSpace: (View.Element) -> Bool) -> [String]
    where View.Index == String.Index {
        var pieces: [String] = []
        var start = text.startIndex
        var currentHasWord = false
        var previousWasSpace = false
        for index in view.indices {
            let space = isSpace(view[index])
            if space, !previousWasSpace, currentHasWord {
                pieces.append(String(text[start..<index]))
                start = index
                currentHasWord = false
            }
            currentHasWord = currentHasWord || !space
            previousWasSpace = space
        }
        if start < text.endIndex { pieces.append(String(text[start...])) }
        return pieces
    }
}
