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
}
