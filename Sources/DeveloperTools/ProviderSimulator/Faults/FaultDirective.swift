import Foundation

/// The `[[fault: <spec>]]` directive that end-to-end tests embed in a prompt, because a request sent through
/// Kiln's job API cannot carry a header of the test's choosing.
enum FaultDirective {
    private static let opening = "[[fault:"
    private static let closing = "]]"

    /// The spec text of the first directive in `text`, if any.
    static func first(in text: String) -> String? {
        guard let start = text.range(of: opening), let end = text.range(of: closing, range: start.upperBound..<text.endIndex) else {
            return nil
        }
        return text[start.upperBound..<end.lowerBound].trimmingSpaces()
    }

    /// `text` without its directives and with each run of whitespace made one space, so a prompt answers and
    /// counts the same with or without a directive wherever it sits.
    static func stripped(_ text: String) -> String {
        var output = text
        while let start = output.range(of: opening), let end = output.range(of: closing, range: start.upperBound..<output.endIndex) {
            output.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
