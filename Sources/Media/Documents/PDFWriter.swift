import CPangoCairo
import Drawing

/// Writes a ``Document`` as an A4 PDF with Cairo and Pango: a title page, then the sections flowing on from page to page,
/// each heading a bookmark in the outline, with embedded font subsets (the text is selectable) and a footer on every
/// page but the first. The PDF is tagged: headings, paragraphs, pictures with their alternative text, captions and
/// tables are structure elements in reading order, in the document's language.
public struct PDFWriter: Sendable {
    public init() {}

    /// The PDF's bytes. Blocking and CPU-bound for as long as the layout takes: call it through `BlockingExecutor.rendering`.
    /// - Throws: ``DocumentError/unreadableImage(_:)`` for a PNG Cairo cannot decode, ``DocumentError/renderingFailed(_:)``
    ///   when Cairo reports an error.
    public func write(_ document: Document) throws -> [UInt8] {
        let surface = try PDFSurface(width: PDFStyle.pageWidth, height: PDFStyle.pageHeight)
        surface.setMetadata(.title, document.title)
        if let author = document.author { surface.setMetadata(.author, author) }
        surface.setMetadata(.creator, "Kiln")
        guard let context = cairo_create(surface.pointer) else { throw DocumentError.renderingFailed("no Cairo context") }
        defer { cairo_destroy(context) }
        // One typesetter (one Pango context and font map) for the whole document: making them costs more than laying
        // out a paragraph. Pango's font map is not thread-safe, so it is never shared between writes. Glyphs at the font's
        // own advances, unrounded: see Typesetter.init.
        let flow = PDFPageFlow(context: context, typesetter: Typesetter(roundsGlyphPositions: false), title: document.title)
        let images = PDFImageCache()
        try drawTitlePage(of: document, in: flow, images: images)
        // The sections run on from one to the next, from the page after the title page.
        if !document.sections.isEmpty { flow.startPage() }
        for (index, section) in document.sections.enumerated() {
            let blocks = try section.blocks.map { try block($0, of: section, in: document, typesetter: flow.typesetter, images: images) }
            if let heading = section.heading {
                let destination = "section-\(index + 1)"
                drawHeading(heading, destination: destination, keepingWith: blocks.first, in: flow)
                surface.addOutline(heading, destination: destination)
            }
            for block in blocks { block.draw(in: flow) }
        }
        flow.finish()
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentError.renderingFailed("PDF drawing: \(String(cString: cairo_status_to_string(status)))")
        }
        let update = PDFStructureUpdate(alternativeTexts: flow.alternativeTexts, language: document.language)
        return try update.apply(to: try surface.finish())
    }

    /// A section's heading, bold, at a named destination its outline entry opens; on the next page when it would
    /// otherwise sit at the bottom of this one without the start of its first block.
    private func drawHeading(_ heading: String, destination: String, keepingWith first: (any PDFBlock)?, in flow: PDFPageFlow) {
        let layout = flow.typesetter.layout(heading, size: PDFStyle.headingSize, weight: PANGO_WEIGHT_BOLD, width: PDFStyle.columnWidth)
        flow.addGap(PDFStyle.headingGapBefore)
        flow.makeRoom(for: layout.height + PDFStyle.headingGapAfter + (first?.leadingHeight ?? 0))
        // Cairo places the destination at the top left of what is drawn between the tags. The title page's title is the H1.
        flow.tagged("H2") {
            cairo_tag_begin(flow.context, CAIRO_TAG_DEST, "name='\(destination)'")
            flow.drawLines(of: layout, PDFStyle.heading)
            cairo_tag_end(flow.context, CAIRO_TAG_DEST)
        }
        flow.advance(by: PDFStyle.headingGapAfter)
    }

    private func block(
        _ block: DocumentBlock, of section: DocumentSection, in document: Document, typesetter: Typesetter, images: PDFImageCache
    ) throws -> any PDFBlock {
        switch block {
        case .paragraph(let text): PDFParagraph(text, typesetter: typesetter)
        case .image(let image, let caption, let description):
            PDFFigure(
                try images.surface(for: image), caption: caption,
                alternativeText: document.alternativeText(description: description, caption: caption, in: section), typesetter: typesetter)
        case .table(let table): PDFTable(table, typesetter: typesetter)
        }
    }
}
