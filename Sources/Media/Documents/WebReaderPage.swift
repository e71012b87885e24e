import KilnCore
import TalevoniaInputs
import WebReader

/// The public, read-only page of a shared reading path (`/s/<slug>`): one self-contained HTML5 file with its style
/// inline and no script, no links and nothing fetched from elsewhere but the pictures and the share card, at the
/// addresses the caller gives. Every text is escaped, so a story's words can never become markup.
public struct WebReaderPage: Sendable {
    public let html: String

    /// - Parameters:
    ///   - pageURL: the page's own address (`og:url`).
    ///   - cardURL: the landscape share card (`og:image`, 1200×630), the link preview's picture.
    ///   - imageURL: where each of the document's pictures (cover included) is served.
    ///   - summary: what the share card says of the story, which the link preview then says too; the story's opening
    ///     when nil or blank.
    public init(document: Document, pageURL: String, cardURL: String, summary: String? = nil, imageURL: (DocumentImage) -> String) {
        let description = Self.description(of: document, summary: summary)
        let card = ShareCardSize.landscape.pixels
        let head = """
            <title>\("\(document.title) · Talevonia".xmlEscaped)</title>
            <meta name="description" content="\(description.xmlEscaped)">
            <meta property="og:type" content="article">
            <meta property="og:site_name" content="Talevonia">
            <meta property="og:title" content="\(document.title.xmlEscaped)">
            <meta property="og:description" content="\(description.xmlEscaped)">
            <meta property="og:url" content="\(pageURL.xmlEscaped)">
            <meta property="og:image" content="\(cardURL.xmlEscaped)">
            <meta property="og:image:type" content="image/png">
            <meta property="og:image:width" content="\(card.width)">
            <meta property="og:image:height" content="\(card.height)">
            <meta property="og:image:alt" content="\("“\(document.title)” on Talevonia".xmlEscaped)">
            <meta name="twitter:card" content="summary_large_image">
            """
        let body = """
            <main>
            \(Self.header(of: document, imageURL: imageURL))
            \(document.sections.map { Self.section($0, of: document, imageURL: imageURL) }.joined(separator: "\n"))
            </main>
            <footer>\(TalevoniaMark.svg(size: 18))<span>Shared with Talevonia · read-only</span></footer>
            """
        html = ReaderPageFrame.html(language: document.language, head: head, body: body)
    }
}
