import CPangoCairo
import Drawing

/// A picture across the text column, with an optional caption in italics under it.
struct PDFFigure: PDFBlock {
    let picture: CairoSurface
    let size: (width: Double, height: Double)
    let caption: TextLayout?
    let captionHeight: Double
    let alternativeText: String

    init(_ picture: CairoSurface, caption: String?, alternativeText: String, typesetter: Typesetter) {
        self.picture = picture
        self.alternativeText = alternativeText
        size = Self.fittedSize(of: picture, maxHeight: PDFStyle.maxFigureHeight)
        self.caption = caption.map { typesetter.layout($0, size: PDFStyle.captionSize, width: PDFStyle.columnWidth, centred: true, italic: true) }
        captionHeight = self.caption.map { PDFStyle.captionGap + $0.height } ?? 0
    }

    /// The picture's size on the page: as wide as the column at most, `maxHeight` tall at most, and never enlarged
    /// more than ``PDFStyle/maxFigureUpscale``, one pixel being a point.
    static func fittedSize(of picture: CairoSurface, maxHeight: Double) -> (width: Double, height: Double) {
        let (width, height) = (Double(picture.width), Double(picture.height))
        let scale = min(PDFStyle.columnWidth / width, maxHeight / height, PDFStyle.maxFigureUpscale)
        return (width * scale, height * scale)
    }

    var leadingHeight: Double { size.height + captionHeight }

    func draw(in flow: PDFPageFlow) {
        flow.addGap(PDFStyle.figureGap)
        flow.makeRoom(for: leadingHeight)
        flow.drawPicture(picture, width: size.width, height: size.height, alternativeText: alternativeText)
        if let caption {
            flow.advance(by: PDFStyle.captionGap)
            flow.tagged("Caption") { flow.drawLines(of: caption, PDFStyle.secondary) }
        }
        // As much space below as above, with the next paragraph's own gap.
        flow.addGap(PDFStyle.figureGap - PDFStyle.paragraphGap)
    }
}
