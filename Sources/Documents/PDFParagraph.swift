import CPangoCairo
import Drawing

/// A paragraph of body text, which breaks across pages between lines.
struct PDFParagraph: PDFBlock {
    let layout: TextLayout
    let leadingHeight: Double

    /// Pango picks each paragraph's direction from its first strong character, so a right-to-left paragraph reads and
    /// aligns right to left, and right-to-left words inside a left-to-right one are reordered in place.
    init(_ text: String, typesetter: Typesetter) {
        layout = typesetter.layout(text, size: PDFStyle.bodySize, width: PDFStyle.columnWidth)
        // Two lines, so a heading is never followed by a lone line at the bottom of its page.
        let iterator = pango_layout_get_iter(layout.pointer)
        defer { pango_layout_iter_free(iterator) }
        let lines = pango_layout_get_line_count(layout.pointer) > 1 ? 2.0 : 1.0
        if lines > 1 { pango_layout_iter_next_line(iterator) }
        var last = PangoRectangle()
        pango_layout_iter_get_line_extents(iterator, nil, &last)
        leadingHeight = Double(last.y + last.height) / Double(PANGO_SCALE) + (lines - 1) * PDFStyle.bodyLeading
    }

    func draw(in flow: PDFPageFlow) {
        flow.addGap(PDFStyle.paragraphGap)
        flow.drawLines(of: layout, PDFStyle.text, leading: PDFStyle.bodyLeading)
    }
}
