import WebReader

/// The XHTML pages (title page and chapters) and their style sheet. Every text element carries `dir="auto"`, so a
/// paragraph that starts in Hebrew or Arabic reads right to left whatever the book's language.
extension EPUBWriter {
    /// A complete XHTML5 document, as EPUB 3 requires: XML declaration, the XHTML and EPUB namespaces, both language attributes.
    func xhtmlPage(title: String, language: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" \
        lang="\(language.xmlEscaped)" xml:lang="\(language.xmlEscaped)">
        <head><meta charset="UTF-8"/><title>\(title.xmlEscaped)</title>\
        <link rel="stylesheet" type="text/css" href="\(Self.styleSheetFile)"/></head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    func titlePage(of document: Document) -> String {
        var lines: [String] = []
        if let cover = document.cover {
            lines.append(#"<figure class="cover">\#(image(cover, alternative: document.coverAlternativeText))</figure>"#)
        }
        lines.append(#"<h1 class="title" dir="auto">\#(document.title.xmlEscaped)</h1>"#)
        if let subtitle = document.subtitle {
            lines.append(#"<p class="subtitle" dir="auto">\#(subtitle.xmlEscaped)</p>"#)
        }
        if let byline = document.byline {
            lines.append(#"<p class="author" dir="auto">\#(byline.xmlEscaped)</p>"#)
        }
        return xhtmlPage(
            title: document.title, language: document.language,
            body: """
                <section epub:type="titlepage" class="title-page">
                \(lines.joined(separator: "\n"))
                </section>
                """)
    }

    func page(of chapter: Chapter, in document: Document) -> String {
        var lines: [String] = []
        if let heading = chapter.section.heading {
            lines.append(#"<h1 dir="auto">\#(heading.xmlEscaped)</h1>"#)
        }
        for block in chapter.section.blocks {
            switch block {
            case .paragraph(let text):
                lines.append(#"<p dir="auto">\#(text.xmlEscaped)</p>"#)
            case .image(let picture, let caption, let description):
                let figcaption = caption.map { #"<figcaption dir="auto">\#($0.xmlEscaped)</figcaption>"# } ?? ""
                let alternative = document.alternativeText(description: description, caption: caption, in: chapter.section)
                lines.append("<figure>\(image(picture, alternative: alternative))\(figcaption)</figure>")
            case .table(let table):
                lines.append(self.table(table))
            }
        }
        return xhtmlPage(
            title: chapter.title, language: document.language,
            body: """
                <section epub:type="chapter">
                \(lines.joined(separator: "\n"))
                </section>
                """)
    }

    private func image(_ image: DocumentImage, alternative: String) -> String {
        #"<img src="\#(Self.path(of: image).xmlEscaped)" alt="\#(alternative.xmlEscaped)"/>"#
    }

    private func table(_ table: DocumentTable) -> String {
        func cells(_ texts: [String], tag: String, attributes: String) -> String {
            texts.map { "<\(tag)\(attributes) dir=\"auto\">\($0.xmlEscaped)</\(tag)>" }.joined()
        }
        let header = "<thead><tr>\(cells(table.header, tag: "th", attributes: #" scope="col""#))</tr></thead>"
        let body = table.rows.map { "<tr>\(cells($0, tag: "td", attributes: ""))</tr>" }.joined()
        return "<table>\(header)<tbody>\(body)</tbody></table>"
    }

    var styleSheet: String {
        """
        body { font-family: Inter, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; }
        h1 { font-size: 1.6em; line-height: 1.25; margin: 1.2em 0 0.6em; }
        p { margin: 0 0 0.8em; }
        figure { margin: 1.2em 0; text-align: center; }
        figure img { max-width: 100%; height: auto; }
        figcaption { margin-top: 0.4em; font-size: 0.85em; font-style: italic; color: #555555; }
        table { width: 100%; margin: 1em 0; border-collapse: collapse; }
        th, td { padding: 0.3em 0.5em; border: 1px solid #888888; text-align: start; vertical-align: top; }
        th { background-color: #eeeeee; font-weight: bold; }
        .title-page { margin-top: 10%; text-align: center; }
        .title-page .title { font-size: 2.2em; margin: 0.8em 0 0.4em; }
        .title-page .subtitle { font-size: 1.2em; color: #555555; }
        .title-page .author { margin-top: 1.5em; font-style: italic; }
        .cover img { max-width: 100%; max-height: 60vh; }

        """
    }
}
