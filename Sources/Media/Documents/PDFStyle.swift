import Drawing

/// The PDF's page geometry, type sizes and colours, in points (Cairo's PDF unit; Pango's absolute sizes are in it too).
enum PDFStyle {
    // A4.
    static let pageWidth = 595.0
    static let pageHeight = 842.0
    static let sideMargin = 64.0
    static let topMargin = 64.0
    /// Where text and pictures stop; the footer sits below.
    static let contentBottom = pageHeight - 76
    static let footerTop = pageHeight - 48
    static let columnWidth = pageWidth - 2 * sideMargin
    /// Pictures are at most this tall, so a page never holds just one picture and nothing else.
    static let maxFigureHeight = pageHeight * 0.45
    /// Small pictures are enlarged to the column at most this much: beyond it they look blurred.
    static let maxFigureUpscale = 2.0

    static let titleSize = 28.0
    static let subtitleSize = 15.0
    static let authorSize = 12.0
    static let headingSize = 17.0
    static let bodySize = 11.0
    static let captionSize = 9.5
    static let tableSize = 9.5
    static let footerSize = 8.0

    /// Space added between body lines, for book-like leading in long reading (Inter's own is 1.2 em). Added by the page
    /// flow rather than with pango_layout_set_line_spacing, which would lay every paragraph out a second time.
    static let bodyLeading = 3.5
    static let paragraphGap = 7.0
    static let headingGapBefore = 18.0
    static let headingGapAfter = 7.0
    static let figureGap = 12.0
    static let captionGap = 5.0
    static let cellPadding = 4.0
    static let gridLineWidth = 0.5

    static let text = RGBColor(0x1A1A1A)
    static let heading = RGBColor(0x1F3A5F)
    static let secondary = RGBColor(0x555555)
    static let footer = RGBColor(0x8A8A8A)
    static let grid = RGBColor(0x9A9A9A)
    static let headerFill = RGBColor(0xECEEF1)
}
