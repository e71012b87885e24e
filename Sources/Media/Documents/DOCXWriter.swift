import Drawing

/// Writes a ``Document`` as a Word document (Office Open XML, .docx) that Word, Pages, Google Docs and LibreOffice open:
/// a title page (Title, Subtitle, author, cover picture, page break), then each section as a Heading 1 and its
/// paragraphs, pictures with captions and tables, all in real named styles so readers can restyle the whole document;
/// every page after the title page numbered at its foot.
public struct DOCXWriter: Sendable {
    public init() {}

    /// - Throws: ``DocumentError/renderingFailed(_:)`` when zlib fails or the document passes zip's 4 GiB limit.
    public func write(_ document: Document) throws -> [UInt8] {
        let images = document.images
        var archive = ZipArchive()
        try archive.add("[Content_Types].xml", Array(contentTypes(imageFormats: images.map(\.format)).utf8))
        try archive.add("_rels/.rels", Array(packageRelationships.utf8))
        try archive.add("docProps/core.xml", Array(coreProperties(of: document).utf8))
        try archive.add("word/document.xml", Array(body(of: document).utf8))
        try archive.add("word/styles.xml", Array(styles.utf8))
        try archive.add("word/fontTable.xml", Array(fontTable.utf8))
        try archive.add("word/footer1.xml", Array(pageNumberFooter.utf8))
        try archive.add("word/_rels/document.xml.rels", Array(documentRelationships(images: images).utf8))
        for image in images {
            try archive.add("word/media/\(image.name)", image.data)
        }
        return archive.finish()
    }

    // MARK: - Page geometry

    /// A4 with one-inch margins, in twentieths of a point ("twips"), Word's unit for page and table measures.
    static let pageWidth = 11_906
    static let pageHeight = 16_838
    static let margin = 1_440
    static let textWidth = pageWidth - 2 * margin
    static let textHeight = pageHeight - 2 * margin
    /// The Normal style's size (`w:sz` 22 half-points), which table cells are in.
    static let bodyPoints = 11.0

    // MARK: - word/document.xml

    private func body(of document: Document) -> String {
        // Measures the tables' text; one per document, as Pango's font map is not thread-safe.
        let typesetter = Typesetter()
        let pictureIDs = Dictionary(uniqueKeysWithValues: document.images.enumerated().map { ($1.name, Self.relationshipID(ofImageAt: $0)) })
        // Every drawing needs a document-wide unique `wp:docPr` id, even when one picture appears twice.
        var drawingCount = 0
        func picture(_ image: DocumentImage, caption: String?, description: String) -> String {
            drawingCount += 1
            return pictureParagraph(
                image, relationshipID: pictureIDs[image.name] ?? "", drawingID: drawingCount, description: description,
                keepWithCaption: caption != nil)
        }

        var xml = [paragraph(document.title, style: "Title")]
        if let subtitle = document.subtitle {
            xml.append(paragraph(subtitle, style: "Subtitle"))
        }
        if let byline = document.byline {
            xml.append(paragraph(byline, style: "Author"))
        }
        if let cover = document.cover {
            xml.append(picture(cover, caption: nil, description: document.coverAlternativeText))
        }
        xml.append(#"<w:p><w:r><w:br w:type="page"/></w:r></w:p>"#)

        for section in document.sections {
            if let heading = section.heading {
                xml.append(paragraph(heading, style: "Heading1"))
            }
            for block in section.blocks {
                switch block {
                case .paragraph(let text):
                    xml.append(paragraph(text))
                case .image(let image, let caption, let description):
                    let alternative = document.alternativeText(description: description, caption: caption, in: section)
                    xml.append(picture(image, caption: caption, description: alternative))
                    if let caption {
                        xml.append(paragraph(caption, style: "Caption"))
                    }
                case .table(let table):
                    xml.append(self.table(table, typesetter: typesetter))
                }
            }
        }

        let sectionProperties = """
            <w:sectPr><w:footerReference w:type="default" r:id="\(Self.footerRelationshipID)"/>\
            <w:pgSz w:w="\(Self.pageWidth)" w:h="\(Self.pageHeight)"/>\
            <w:pgMar w:top="\(Self.margin)" w:right="\(Self.margin)" w:bottom="\(Self.margin)" w:left="\(Self.margin)" \
            w:header="708" w:footer="708" w:gutter="0"/><w:titlePg/></w:sectPr>
            """
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <w:document xmlns:w="\(Self.wordprocessingML)" xmlns:r="\(Self.officeRelationships)" \
            xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" \
            xmlns:a="\(Self.drawingML)" xmlns:pic="\(Self.pictureML)">\
            <w:body>\(xml.joined())\(sectionProperties)</w:body></w:document>
            """
    }

    /// Header cells are bold and the header row repeats at the top of every page the table runs onto (`w:tblHeader`).
    /// Columns are sized to their content as in the PDF (``TableColumnWidths``), measured in the body's size with the
    /// cells' margins (108 twips a side, the table style's).
    private func table(_ table: DocumentTable, typesetter: Typesetter) -> String {
        let measured = TableColumnWidths(
            table, available: Double(Self.textWidth) / 20, padding: 2 * 108 / 20, typesetter: typesetter, size: Self.bodyPoints
        ).widths.map { Int(($0 * 20).rounded(.down)) }
        // Whole twips that add up to the text width: the last column takes what rounding left.
        let columnWidths = measured.dropLast() + [Self.textWidth - measured.dropLast().reduce(0, +)]
        func row(_ cells: [String], isHeader: Bool) -> String {
            let cellsXML = zip(cells, columnWidths).map { cell, width in
                #"<w:tc><w:tcPr><w:tcW w:w="\#(width)" w:type="dxa"/></w:tcPr>\#(paragraph(cell, bold: isHeader))</w:tc>"#
            }
            return "<w:tr>\(isHeader ? "<w:trPr><w:tblHeader/></w:trPr>" : "")\(cellsXML.joined())</w:tr>"
        }
        let grid = columnWidths.map { #"<w:gridCol w:w="\#($0)"/>"# }.joined()
        return """
            <w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="\(Self.textWidth)" w:type="dxa"/>\
            <w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>\
            </w:tblPr><w:tblGrid>\(grid)</w:tblGrid>\
            \(row(table.header, isHeader: true))\(table.rows.map { row($0, isHeader: false) }.joined())</w:tbl>
            """
    }

    // MARK: - Namespaces and relationships

    static let wordprocessingML = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let officeRelationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let packageRelationshipsNamespace = "http://schemas.openxmlformats.org/package/2006/relationships"
    static let drawingML = "http://schemas.openxmlformats.org/drawingml/2006/main"
    static let pictureML = "http://schemas.openxmlformats.org/drawingml/2006/picture"

    /// word/document.xml's relationships: the styles and font table first, then one per image in ``Document/images`` order.
    static func relationshipID(ofImageAt index: Int) -> String { "rId\(index + 3)" }
}
