import CPangoCairo
import Drawing

/// How wide each column of a table is, the way a browser sizes a table to its content: every column at least as wide as
/// its longest word, so no word is broken while the table could make room for it; the width left over is shared in
/// proportion to how much more each column would take to hold its longest cell on one line. Only when the longest words
/// alone are wider than the table are columns narrower than a word, in proportion to those words.
struct TableColumnWidths {
    /// Each column's width, in the unit of `available`, adding up to it.
    let widths: [Double]

    /// - Parameters:
    ///   - available: the table's width.
    ///   - padding: what a cell adds to its text's width (its margins on both sides).
    ///   - measure: the width of a text on one line, bold or not (the header row is bold).
    init(_ table: DocumentTable, available: Double, padding: Double, measure: (String, _ bold: Bool) -> Double) {
        let rows = [table.header] + table.rows
        var shortest = [Double](repeating: padding, count: table.header.count)
        var longest = shortest
        for (index, row) in rows.enumerated() {
            for (column, cell) in row.prefix(table.header.count).enumerated() {
                let bold = index == 0
                // A little slack: a word measured alone can come out a hair wider within its line.
                let word = cell.split(whereSeparator: \.isWhitespace).map { measure(String($0), bold) }.max() ?? 0
                shortest[column] = max(shortest[column], word + padding + 1)
                longest[column] = max(longest[column], measure(cell, bold) + padding + 1)
            }
        }
        let shortestTotal = shortest.reduce(0, +)
        let longestTotal = longest.reduce(0, +)
        if longestTotal <= available {
            // Everything fits on one line: the table spans the width, each column in proportion to its content.
            widths = longest.map { $0 * available / longestTotal }
        } else if shortestTotal <= available {
            let share = (available - shortestTotal) / (longestTotal - shortestTotal)
            widths = zip(shortest, longest).map { low, high in low + (high - low) * share }
        } else {
            widths = shortest.map { $0 * available / shortestTotal }
        }
    }

    /// Measures with `typesetter` at `size`: the header bold, the rest regular.
    init(_ table: DocumentTable, available: Double, padding: Double, typesetter: Typesetter, size: Double) {
        self.init(table, available: available, padding: padding) { text, bold in
            typesetter.layout(text, size: size, weight: bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL).width
        }
    }
}
