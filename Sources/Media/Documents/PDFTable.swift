import CPangoCairo
import Drawing

/// A table across the column: a bold header row on a light fill, thin grid lines, columns sized to their content
/// (``TableColumnWidths``) and cells wrapped to them. A row that does not fit moves to the next page, under a repeated
/// header.
struct PDFTable: PDFBlock {
    private struct Row {
        let cells: [TextLayout]
        let height: Double
    }

    private let columnWidths: [Double]
    private let header: Row
    private let rows: [Row]

    init(_ table: DocumentTable, typesetter: Typesetter) {
        let padding = 2 * PDFStyle.cellPadding
        let columnWidths = TableColumnWidths(
            table, available: PDFStyle.columnWidth, padding: padding, typesetter: typesetter, size: PDFStyle.tableSize
        )
        .widths
        func row(_ texts: [String], weight: PangoWeight) -> Row {
            let cells = zip(texts, columnWidths).map { text, width in
                typesetter.layout(text, size: PDFStyle.tableSize, weight: weight, width: width - padding)
            }
            return Row(cells: cells, height: (cells.map(\.height).max() ?? 0) + padding)
        }
        self.columnWidths = columnWidths
        header = row(table.header, weight: PANGO_WEIGHT_BOLD)
        rows = table.rows.map { row($0, weight: PANGO_WEIGHT_NORMAL) }
    }

    var leadingHeight: Double { header.height + (rows.first?.height ?? 0) }

    /// A Table element of TR rows of TH (the header's) and TD cells; one per page when the table runs on.
    func draw(in flow: PDFPageFlow) {
        flow.addGap(PDFStyle.figureGap)
        flow.makeRoom(for: leadingHeight)
        flow.tagged("Table") {
            draw(header, filled: true, in: flow)
            var rowsOnPage = 0
            for row in rows {
                // A row taller than a page would not fit on the next one either: it runs on past the bottom margin.
                if row.height > flow.spaceLeft, rowsOnPage > 0 {
                    flow.startPage()
                    draw(header, filled: true, in: flow)
                    rowsOnPage = 0
                }
                draw(row, filled: false, in: flow)
                rowsOnPage += 1
            }
        }
        flow.addGap(PDFStyle.figureGap - PDFStyle.paragraphGap)
    }

    /// A row; `filled` is the header's.
    private func draw(_ row: Row, filled: Bool, in flow: PDFPageFlow) {
        let context = flow.context
        let top = flow.y
        if filled {
            flow.canvas.color(PDFStyle.headerFill)
            cairo_rectangle(context, PDFStyle.sideMargin, top, PDFStyle.columnWidth, row.height)
            cairo_fill(context)
        }
        var x = PDFStyle.sideMargin
        flow.tagged("TR") {
            for (cell, width) in zip(row.cells, columnWidths) {
                flow.tagged(filled ? "TH" : "TD") {
                    flow.canvas.draw(cell, x: x + PDFStyle.cellPadding, y: top + PDFStyle.cellPadding, PDFStyle.text)
                }
                x += width
            }
        }
        flow.canvas.color(PDFStyle.grid)
        cairo_set_line_width(context, PDFStyle.gridLineWidth)
        cairo_rectangle(context, PDFStyle.sideMargin, top, PDFStyle.columnWidth, row.height)
        x = PDFStyle.sideMargin
        for width in columnWidths.dropLast() {
            x += width
            cairo_move_to(context, x, top)
            cairo_line_to(context, x, top + row.height)
        }
        cairo_stroke(context)
        flow.advance(by: row.height)
    }
}
