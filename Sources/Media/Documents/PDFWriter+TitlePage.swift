import CPangoCairo
import Drawing

extension PDFWriter {
    /// Page 1: the title, large and bold, the subtitle and the author, centred, and the cover scaled into the rest of
    /// the page. Without a cover the text sits a third of the way down.
    func drawTitlePage(of document: Document, in flow: PDFPageFlow, images: PDFImageCache) throws {
        let cover = try document.cover.map(images.surface(for:))
        flow.advance(by: cover == nil ? PDFStyle.pageHeight / 3 - PDFStyle.topMargin : PDFStyle.headingGapBefore)
        let typesetter = flow.typesetter
        let title = typesetter.layout(document.title, size: PDFStyle.titleSize, weight: PANGO_WEIGHT_BOLD, width: PDFStyle.columnWidth, centred: true)
        flow.tagged("H1") { flow.drawLines(of: title, PDFStyle.heading) }
        let lines = [(document.subtitle, PDFStyle.subtitleSize), (document.byline, PDFStyle.authorSize)]
        for case (let text?, let size) in lines {
            flow.advance(by: size)
            let layout = typesetter.layout(text, size: size, width: PDFStyle.columnWidth, centred: true)
            flow.tagged("P") { flow.drawLines(of: layout, PDFStyle.secondary) }
        }
        guard let cover else { return }
        flow.advance(by: 2 * PDFStyle.figureGap)
        let size = PDFFigure.fittedSize(of: cover, maxHeight: flow.spaceLeft)
        flow.drawPicture(cover, width: size.width, height: size.height, alternativeText: document.coverAlternativeText)
    }
}
