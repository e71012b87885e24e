/// A document block laid out for the PDF's text column, ready to flow down the pages.
protocol PDFBlock {
    /// What must fit under a section's heading for the heading to stay on its page: a paragraph's first lines, a picture
    /// and its caption, a table's header and first row.
    var leadingHeight: Double { get }

    func draw(in flow: PDFPageFlow)
}
