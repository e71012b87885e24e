import CPangoCairo
import Drawing

/// Lays content down the pages of a PDF, top to bottom: which page the next block goes on, how far down it starts, and
/// each page's footer (all but the title page's).
///
/// Text is drawn with Pango, so Cairo embeds subsets of its fonts and the text stays selectable. A known limit: Cairo 1.16
/// draws colour emoji (Noto Color Emoji's bitmaps) as small 72-ppi images instead of text, so they cannot be selected or
/// searched and look soft when zoomed or printed. Avoiding it takes a newer Cairo than Debian 12 has, or drawing every
/// emoji ourselves (a PangoAttrShape with a shape renderer and sharper pictures), which is not worth it yet.
final class PDFPageFlow {
    let canvas: Canvas
    let typesetter: Typesetter
    private let footerTitle: TextLayout
    private(set) var pageNumber = 1
    /// Where the next block starts, in points from the page's top.
    private(set) var y = PDFStyle.topMargin

    /// - Parameter title: shown at the left of every footer.
    init(context: OpaquePointer, typesetter: Typesetter, title: String) {
        canvas = Canvas(context: context)
        self.typesetter = typesetter
        // One line however long the title: the page number needs the rest of the footer.
        footerTitle = typesetter.layout(title, size: PDFStyle.footerSize, width: PDFStyle.columnWidth * 0.7, maxLines: 1)
    }

    var context: OpaquePointer { canvas.context }
    var isAtPageTop: Bool { y <= PDFStyle.topMargin }
    var spaceLeft: Double { PDFStyle.contentBottom - y }

    /// Ends this page and starts the next.
    func startPage() {
        drawFooter()
        cairo_show_page(context)
        pageNumber += 1
        y = PDFStyle.topMargin
    }

    /// Starts a new page unless `height` fits under the current position (or nothing is on this page yet: a block
    /// taller than a page would not fit on the next either).
    func makeRoom(for height: Double) {
        if height > spaceLeft, !isAtPageTop { startPage() }
    }

    /// Space between blocks; none at the top of a page.
    func addGap(_ gap: Double) {
        if !isAtPageTop { y += gap }
    }

    func advance(by height: Double) {
        y += height
    }

    /// Draws a laid-out text in the column, line by line, `leading` points further apart than Pango sets them, moving to
    /// a new page wherever the next line does not fit.
    func drawLines(of layout: TextLayout, _ color: RGBColor, leading: Double = 0) {
        let iterator = pango_layout_get_iter(layout.pointer)
        defer { pango_layout_iter_free(iterator) }
        // The page position of the layout's top; it changes at every page break.
        var layoutTop = y
        var addedLeading = 0.0
        repeat {
            var line = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &line)
            let lineTop = Double(line.y) / Double(PANGO_SCALE) + addedLeading
            let lineBottom = lineTop + Double(line.height) / Double(PANGO_SCALE)
            if layoutTop + lineBottom > PDFStyle.contentBottom, layoutTop + lineTop > PDFStyle.topMargin {
                startPage()
                layoutTop = y - lineTop
            }
            // As pango_cairo_show_layout does: each line from the left of its logical box (which carries the
            // alignment, right for a right-to-left paragraph), on its baseline.
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / Double(PANGO_SCALE) + addedLeading
            canvas.color(color)
            cairo_move_to(context, PDFStyle.sideMargin + Double(line.x) / Double(PANGO_SCALE), layoutTop + baseline)
            pango_cairo_show_layout_line(context, pango_layout_iter_get_line_readonly(iterator))
            y = layoutTop + lineBottom
            addedLeading += leading
        } while pango_layout_iter_next_line(iterator) != 0
    }

    /// Paints a picture `width` × `height` points large, centred in the column at the current position.
    func drawPicture(_ picture: CairoSurface, width: Double, height: Double) {
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_translate(context, (PDFStyle.pageWidth - width) / 2, y)
        cairo_scale(context, width / Double(picture.width), height / Double(picture.height))
        cairo_set_source_surface(context, picture.pointer, 0, 0)
        cairo_paint(context)
        y += height
    }

    /// Draws the last page's footer; the surface writes the page when it finishes.
    func finish() {
        drawFooter()
    }

    /// The title on the left, "page N" on the right; nothing on the title page.
    private func drawFooter() {
        guard pageNumber > 1 else { return }
        let number = typesetter.layout("page \(pageNumber)", size: PDFStyle.footerSize)
        canvas.draw(footerTitle, x: PDFStyle.sideMargin, y: PDFStyle.footerTop, PDFStyle.footer)
        canvas.draw(number, x: PDFStyle.sideMargin + PDFStyle.columnWidth - number.width, y: PDFStyle.footerTop, PDFStyle.footer)
    }
}
