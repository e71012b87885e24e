public import Foundation

/// Writes a ``Document`` as an EPUB 3 book that epubcheck passes without errors or warnings: a title page (cover,
/// title, subtitle, author), one XHTML chapter per section, a table of contents, a style sheet and the pictures.
public struct EPUBWriter: Sendable {
    public init() {}

    /// - Parameter modified: the book's `dcterms:modified`, which EPUB requires; the export job's time, so a retried job
    ///   that passes the same time writes the same bytes.
    /// - Throws: ``DocumentError/renderingFailed(_:)`` when zlib fails or the book passes zip's 4 GiB limit.
    public func write(_ document: Document, modified: Date) throws -> [UInt8] {
        let chapters = document.sections.enumerated().map { index, section in
            Chapter(file: "section-\(index + 1).xhtml", title: section.heading ?? "Part \(index + 1)", section: section)
        }
        var archive = ZipArchive()
        // Reading systems recognise a book by its first entry: "mimetype", stored, with no extra field.
        try archive.add("mimetype", Array("application/epub+zip".utf8), compressed: false)
        try archive.add("META-INF/container.xml", Array(container.utf8))
        try archive.add("OEBPS/content.opf", Array(packageDocument(of: document, chapters: chapters, modified: modified).utf8))
        try archive.add("OEBPS/nav.xhtml", Array(navigation(of: document, chapters: chapters).utf8))
        try archive.add("OEBPS/\(Self.styleSheetFile)", Array(styleSheet.utf8))
        try archive.add("OEBPS/\(Self.titlePageFile)", Array(titlePage(of: document).utf8))
        for chapter in chapters {
            try archive.add("OEBPS/\(chapter.file)", Array(page(of: chapter, in: document).utf8))
        }
        for image in document.images {
            try archive.add("OEBPS/\(Self.path(of: image))", image.data)
        }
        return archive.finish()
    }

    /// One section as the book's reading order holds it.
    struct Chapter {
        let file: String
        /// The heading, or "Part N" for a section without one, as the table of contents needs a name for every entry.
        let title: String
        let section: DocumentSection
    }

    static let titlePageFile = "title.xhtml"
    static let styleSheetFile = "style.css"

    /// Where `image` lives, relative to the package document and the pages (all in OEBPS/).
    static func path(of image: DocumentImage) -> String { "images/\(image.name)" }
}
