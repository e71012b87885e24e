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
    /// The structure tags open now, outermost first: closed for each footer and opened again on the next page.
    private var openTags: [String] = []
    /// Each picture's alternative text, in the order they were drawn: the order of the PDF's Figure elements.
    private(set) var alternativeTexts: [String] = []

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
        // The footer belongs to no element, so a screen reader skips it: a paragraph or table that runs on to the next
        // page becomes two elements, one per page (Cairo 1.16 can neither pause a tag nor mark an artifact).
        for tag in openTags.reversed() { cairo_tag_end(context, tag) }
        drawFooter()
        cairo_show_page(context)
        for tag in openTags { cairo_tag_begin(context, tag, nil) }
        pageNumber += 1
        y = PDFStyle.topMargin
    }

    /// Draws `body` inside a structure element of the tagged PDF ("P", "H1", "Figure", "Table", "TD", …), which gives
    /// screen readers and reflowing viewers the reading order and each part's role.
    func tagged(_ tag: String, _ body: () -> Void) {
        cairo_tag_begin(context, tag, nil)
        openTags.append(tag)
        body()
        openTags.removeLast()
        cairo_tag_end(context, tag)
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
    /// a new page wherever the next line does not fit. A paragraph never leaves its first line alone at the foot of a page
    /// (an orphan: the paragraph starts on the next page) nor its last line alone at the head of one (a widow: the line
    /// before goes with it).
    func drawLines(of layout: TextLayout, _ color: RGBColor, leading: Double = 0) {
        let lines = Self.lines(of: layout, leading: leading)
        let breaks = pageBreaks(lines)
        // The page position of the layout's top; it changes at every page break.
        var layoutTop = y
        for (index, line) in lines.enumerated() {
            if breaks.contains(index) {
                startPage()
                layoutTop = y - line.top
            }
            // As pango_cairo_show_layout does: each line from the left of its logical box (which carries the
            // alignment, right for a right-to-left paragraph), on its baseline.
            canvas.color(color)
            cairo_move_to(context, PDFStyle.sideMargin + line.x, layoutTop + line.baseline)
            pango_cairo_show_layout_line(context, line.line)
            y = layoutTop + line.bottom
        }
    }

    /// One line of a layout, in points from the layout's top, leading added.
    private struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        let x: Double
        let top: Double
        let bottom: Double
        let baseline: Double
    }

    private static func lines(of layout: TextLayout, leading: Double) -> [Line] {
        let iterator = pango_layout_get_iter(layout.pointer)
        defer { pango_layout_iter_free(iterator) }
        var lines: [Line] = []
        repeat {
            var extents = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &extents)
            let added = Double(lines.count) * leading
            let top = Double(extents.y) / Double(PANGO_SCALE) + added
            lines.append(
                Line(
                    line: pango_layout_iter_get_line_readonly(iterator), x: Double(extents.x) / Double(PANGO_SCALE), top: top,
                    bottom: top + Double(extents.height) / Double(PANGO_SCALE),
                    baseline: Double(pango_layout_iter_get_baseline(iterator)) / Double(PANGO_SCALE) + added))
        } while pango_layout_iter_next_line(iterator) != 0
        return lines
    }

    /// The lines that start a new page, from the current position: wherever the next line does not fit, then moved
    /// so no page holds a paragraph's first or last line alone.
    private func pageBreaks(_ lines: [Line]) -> Set<Int> {
        // Where each line would go with no other rule, the first at `top` (its layout's top on the page).
        func breaks(from first: Int, layoutTop top: Double) -> [Int] {
            var layoutTop = top
            var breaks: [Int] = []
            for index in lines.indices.dropFirst(first) {
                let line = lines[index]
                if layoutTop + line.bottom > PDFStyle.contentBottom, layoutTop + line.top > PDFStyle.topMargin {
                    breaks.append(index)
                    layoutTop = PDFStyle.topMargin - line.top
                }
            }
            return breaks
        }
        /// The last line alone on its page takes the one before with it, unless that would leave that one alone.
        func withoutWidow(_ breaks: [Int], firstPageStart: Int) -> [Int]? {
            guard let last = breaks.last, last == lines.count - 1 else { return breaks }
            let previousStart = breaks.dropLast().last ?? firstPageStart
            guard last - 1 - previousStart >= 2 else { return nil }
            return breaks.dropLast() + [last - 1]
        }
        let inPlace = breaks(from: 0, layoutTop: y)
        let orphaned = inPlace.first == 1
        if !orphaned, let breaks = withoutWidow(inPlace, firstPageStart: 0) { return Set(breaks) }
        guard !isAtPageTop, lines.count > 1 else { return Set(inPlace) }
        // The paragraph starts on the next page.
        let onNextPage = [0] + breaks(from: 1, layoutTop: PDFStyle.topMargin - lines[0].top)
        return Set(withoutWidow(onNextPage, firstPageStart: 0) ?? onNextPage)
    }

    /// Paints a picture `width` × `height` points large, centred in the column at the current position, as a Figure
    /// element whose alternative text is `alternativeText`.
    func drawPicture(_ picture: CairoSurface, width: Double, height: Double, alternativeText: String) {
        alternativeTexts.append(alternativeText)
        tagged("Figure") {
            cairo_save(context)
            defer { cairo_restore(context) }
            cairo_translate(context, (PDFStyle.pageWidth - width) / 2, y)
            cairo_scale(context, width / Double(picture.width), height / Double(picture.height))
            cairo_set_source_surface(context, picture.pointer, 0, 0)
            // A fill of the picture's rectangle, which Cairo writes as the same image drawn under a clip: a paint that
            // comes first in a page's tagged content makes Cairo 1.16 fail the whole file ("invalid tag … nesting").
            cairo_rectangle(context, 0, 0, Double(picture.width), Double(picture.height))
            cairo_fill(context)
        }
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
