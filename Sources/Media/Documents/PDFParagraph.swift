import CPangoCairo
import Drawing

/// A paragraph of body text, which breaks across pages between lines.
struct PDFParagraph: PDFBlock {
    let layout: TextLayout
    let leadingHeight: Double

    /// Pango picks each paragraph's direction from its first strong character, so a right-to-left paragraph reads and
    /// aligns right to left, and right-to-left words inside a left-to-right one are reordered in place. Its last line
    /// never holds one word alone when the line before can spare one.
    init(_ text: String, typesetter: Typesetter) {
        layout = typesetter.layout(text, size: PDFStyle.bodySize, width: PDFStyle.columnWidth, avoidingLoneLastWord: true)
        // What must fit under a heading so it never sits above a lone line: the gap before the paragraph and its first two
        // lines, or all three of a paragraph of three (its last line would stand alone overleaf, which the page flow does
        // not allow either: it would move the whole paragraph).
        let count = Int(pango_layout_get_line_count(layout.pointer))
        // A layout has a line even when empty.
        let kept = count == 3 ? 3 : min(count, 2)
        let iterator = pango_layout_get_iter(layout.pointer)
        defer { pango_layout_iter_free(iterator) }
        for _ in 1..<kept { pango_layout_iter_next_line(iterator) }
        var last = PangoRectangle()
        pango_layout_iter_get_line_extents(iterator, nil, &last)
        leadingHeight = PDFStyle.paragraphGap + Double(last.y + last.height) / Double(PANGO_SCALE) + Double(kept - 1) * PDFStyle.bodyLeading
    }

    func draw(in flow: PDFPageFlow) {
        flow.addGap(PDFStyle.paragraphGap)
        flow.tagged("P") { flow.drawLines(of: layout, PDFStyle.text, leading: PDFStyle.bodyLeading) }
    }
}
