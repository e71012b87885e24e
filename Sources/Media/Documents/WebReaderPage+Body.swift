import WebReader

extension WebReaderPage {
    /// The link preview's text: the summary or the first paragraph, cut at a word boundary to at most this many
    /// characters.
    static let descriptionLength = 200

    /// The summary the share card shows, else the first paragraph (else the subtitle), at most ``descriptionLength``
    /// characters, cut after a whole word with an ellipsis: the preview says what the card says.
    static func description(of document: Document, summary: String?) -> String {
        let paragraphs = document.sections.lazy.flatMap(\.blocks).compactMap { block -> String? in
            guard case .paragraph(let text) = block, !text.allSatisfy(\.isWhitespace) else { return nil }
            return text
        }
        let given = summary.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        guard let text = given ?? paragraphs.first ?? document.subtitle else { return "A story shared on Talevonia." }
        let words = text.split(whereSeparator: \.isWhitespace)
        var kept = ""
        for word in words {
            let longer = kept.isEmpty ? String(word) : "\(kept) \(word)"
            // One character is left for the ellipsis.
            guard longer.count < descriptionLength else {
                var cut = kept.isEmpty ? String(longer.prefix(descriptionLength - 1)) : kept
                while let last = cut.last, ",;:—–-".contains(last) { cut.removeLast() }
                return cut + "…"
            }
            kept = longer
        }
        return kept
    }

    /// The cover, title, subtitle and author.
    static func header(of document: Document, imageURL: (DocumentImage) -> String) -> String {
        var html = "<header>\n"
        if let cover = document.cover {
            // Above the fold, so not lazy.
            html +=
                "<img class=\"cover\" src=\"\(imageURL(cover).xmlEscaped)\" alt=\"\(document.coverAlternativeText.xmlEscaped)\" width=\"\(cover.width)\" height=\"\(cover.height)\">\n"
        }
        html += "<h1 dir=\"auto\">\(document.title.xmlEscaped)</h1>\n"
        if let subtitle = document.subtitle { html += "<p class=\"subtitle\" dir=\"auto\">\(subtitle.xmlEscaped)</p>\n" }
        if let byline = document.byline { html += "<p class=\"byline\">by <span dir=\"auto\">\(byline.xmlEscaped)</span></p>\n" }
        return html + "</header>"
    }

    /// One section: its heading, paragraphs, figures and tables in order.
    static func section(_ section: DocumentSection, of document: Document, imageURL: (DocumentImage) -> String) -> String {
        var html = "<section>\n"
        if let heading = section.heading { html += "<h2 dir=\"auto\">\(heading.xmlEscaped)</h2>\n" }
        for block in section.blocks {
            switch block {
            case .paragraph(let text):
                html += "<p dir=\"auto\">\(text.xmlEscaped)</p>\n"
            case .image(let image, let caption, let description):
                let alternative = document.alternativeText(description: description, caption: caption, in: section)
                // The width and height reserve the picture's place before it loads, so the text does not jump.
                html +=
                    "<figure><img src=\"\(imageURL(image).xmlEscaped)\" "
                    + "alt=\"\(alternative.xmlEscaped)\" loading=\"lazy\" "
                    + "width=\"\(image.width)\" height=\"\(image.height)\">"
                if let caption { html += "<figcaption dir=\"auto\">\(caption.xmlEscaped)</figcaption>" }
                html += "</figure>\n"
            case .table(let table):
                html += self.table(table)
            }
        }
        return html + "</section>"
    }

    /// A table in a box that scrolls sideways on a narrow screen rather than squeezing its columns.
    private static func table(_ table: DocumentTable) -> String {
        func row(_ cells: [String], tag: String, scope: String = "") -> String {
            "<tr>" + cells.map { "<\(tag)\(scope) dir=\"auto\">\($0.xmlEscaped)</\(tag)>" }.joined() + "</tr>"
        }
        return "<div class=\"table\"><table>\n<thead>\(row(table.header, tag: "th", scope: " scope=\"col\""))</thead>\n<tbody>\n"
            + table.rows.map { row($0, tag: "td") }.joined(separator: "\n") + "\n</tbody>\n</table></div>\n"
    }
}
