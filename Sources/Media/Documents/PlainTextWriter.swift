/// Writes a ``Document`` as plain UTF-8 text (no byte order mark, "\n" line ends): the title underlined with `=`, the
/// subtitle and author, each section's heading underlined with `-`, paragraphs separated by blank lines and left
/// unwrapped (readers and editors wrap them), pictures as "[Picture: caption]" (or its description) and tables as aligned columns.
public struct PlainTextWriter: Sendable {
    public init() {}

    public func write(_ document: Document) -> [UInt8] {
        var chunks = [underlined(document.title, with: "=")]
        let frontMatter = [document.subtitle, document.byline].compactMap { $0 }
        if !frontMatter.isEmpty {
            chunks.append(frontMatter.joined(separator: "\n"))
        }
        for section in document.sections {
            if let heading = section.heading {
                chunks.append(underlined(heading, with: "-"))
            }
            chunks += section.blocks.map(text(of:))
        }
        return Array((chunks.joined(separator: "\n\n") + "\n").utf8)
    }

    /// `line` and a rule under it as long as it is in graphemes, which is what a monospaced reader sees for most text.
    private func underlined(_ line: String, with rule: Character) -> String {
        line + "\n" + String(repeating: rule, count: line.count)
    }

    private func text(of block: DocumentBlock) -> String {
        switch block {
        case .paragraph(let text): text
        case .image(_, let caption?, _), .image(_, nil, let caption?): "[Picture: \(caption)]"
        case .image(_, nil, nil): "[Picture]"
        case .table(let table): text(of: table)
        }
    }

    /// Columns padded to their widest cell in graphemes and separated by " | ", with a rule of dashes under the header.
    /// The last column is not padded, so no line ends in spaces.
    private func text(of table: DocumentTable) -> String {
        let rows = [table.header] + table.rows
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in
            rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String], padding: Character, separator: String) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: padding, count: max(0, widths[column] - cell.count))
            }.joined(separator: separator)
        }
        let rule = line(widths.map { String(repeating: "-", count: $0) }, padding: "-", separator: "-+-")
        return ([line(table.header, padding: " ", separator: " | "), rule] + table.rows.map { line($0, padding: " ", separator: " | ") })
            .joined(separator: "\n")
    }
}
