import KilnJSON

/// Word counts as a reader would make them (runs of non-whitespace), for the kinds whose texts have a length in
/// words, which a JSON Schema cannot express.
enum WordCount {
    static func of(_ text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }

    /// A violation at `path` when `text` is not `range` words long.
    static func check(_ text: String, _ range: ClosedRange<Int>, at path: String) -> OutputViolation? {
        let count = of(text)
        return range.contains(count)
            ? nil : OutputViolation(path: path, reason: "must be \(range.lowerBound)–\(range.upperBound) words long, not \(count)")
    }
}
