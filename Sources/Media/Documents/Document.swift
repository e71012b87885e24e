/// A document to export, in whatever format: what WorldArchitect's campaign summary and Talevonia's reading path both
/// become before a writer (``PDFWriter``, ``DOCXWriter``, ``EPUBWriter``, ``PlainTextWriter``) lays it out. Text is
/// plain Unicode (accents, quotes, emoji, right-to-left words); the writers escape and shape it.
public struct Document: Sendable {
    /// Stable for the same export (the job's id): EPUB's `dc:identifier`, so a retried job writes the same book.
    public var identifier: String
    public var title: String
    /// A line under the title on the title page ("A WorldArchitect campaign").
    public var subtitle: String?
    public var author: String?
    /// BCP 47 tag of the text ("en", "fr", …): EPUB's `dc:language`, DOCX's and HTML's `lang`.
    public var language: String
    /// Shown on the title page (and as EPUB's cover image).
    public var cover: DocumentImage?
    /// In reading order; each starts a chapter in EPUB, an outline entry in PDF and a Heading 1 in DOCX.
    public var sections: [DocumentSection]

    public init(
        identifier: String, title: String, subtitle: String? = nil, author: String? = nil, language: String = "en",
        cover: DocumentImage? = nil, sections: [DocumentSection]
    ) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.author = author
        self.language = language
        self.cover = cover
        self.sections = sections
    }

    /// The author as a title page names them: none when it would only repeat the title (a campaign titled after its
    /// character, played by that character). Metadata keeps ``author`` whatever it is.
    public var byline: String? {
        guard let author else { return nil }
        let normalized = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
        return normalized(author) == normalized(title) ? nil : author
    }

    /// Every image once, cover first, in reading order: what EPUB's manifest and DOCX's media folder hold.
    public var images: [DocumentImage] {
        var seen = Set<String>()
        var images: [DocumentImage] = []
        for image in [cover].compactMap({ $0 }) + sections.flatMap({ $0.blocks.compactMap(\.image) }) where seen.insert(image.name).inserted {
            images.append(image)
        }
        return images
    }
}

/// One titled part of a document: a scene, the character sheet, a node of a story's path.
public struct DocumentSection: Sendable {
    /// "Scene #3", "Character sheet", a node's title; nil for a section that runs on without one.
    public var heading: String?
    public var blocks: [DocumentBlock]

    public init(heading: String?, blocks: [DocumentBlock]) {
        self.heading = heading
        self.blocks = blocks
    }
}

/// What a section holds, in order.
public enum DocumentBlock: Sendable {
    /// One paragraph of plain text, without line breaks.
    case paragraph(String)
    /// A picture across the text column, with an optional caption under it and an optional description of what it shows
    /// for a reader who cannot see it (its alternative text).
    case image(DocumentImage, caption: String?, description: String? = nil)
    case table(DocumentTable)

    var image: DocumentImage? {
        if case .image(let image, _, _) = self { return image }
        return nil
    }
}

/// A table with a header row: the character sheet.
public struct DocumentTable: Sendable {
    public var header: [String]
    /// Each as many cells as `header`.
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }
}
