import Drawing
public import TalevoniaInputs

/// Talevonia's share card: the story's title, cover, byline and path summary with the app's branding, as a PNG for
/// link previews (Open Graph) and story posts. Free-tier cards carry a "Made with Talevonia · free" pill.
public struct ShareCard: Sendable {
    let title: String
    let summary: String
    let cover: DocumentImage?
    let byline: String?
    let watermark: Bool

    /// - Parameters:
    ///   - summary: the reading path in a few sentences; cut to four lines at most, fewer when a long title needs the room.
    ///   - cover: a PNG (JPEGs must be converted first); nil draws a decorative placeholder in its place.
    ///   - byline: shown as given under the title ("by Mira · 5 chapters").
    ///   - watermark: the free tier's "Made with Talevonia · free" pill.
    public init(title: String, summary: String, cover: DocumentImage?, byline: String?, watermark: Bool) {
        self.title = title
        self.summary = summary
        self.cover = cover
        self.byline = byline
        self.watermark = watermark
    }

    /// Draws the card and encodes it as PNG. Blocking (tens of milliseconds, mostly PNG compression): call it through
    /// `BlockingExecutor.rendering`.
    /// - Throws: ``DocumentError/unreadableImage(_:)`` for a cover that is not a PNG Cairo can decode,
    ///   ``DocumentError/renderingFailed(_:)`` when the PNG cannot be encoded.
    public func render(_ size: ShareCardSize) throws -> [UInt8] {
        let coverPicture = try cover.map(Self.decode)
        let layout = ShareCardLayout(size)
        let surface = CairoSurface(width: layout.width, height: layout.height, opaque: true)
        // Pango's font map is not thread-safe, and renders run on threads of their own: one typesetter per card.
        let typesetter = Typesetter()
        surface.draw { canvas in
            Self.drawBackground(on: canvas, layout: layout)
            if let coverPicture {
                Self.drawCover(coverPicture, on: canvas, layout: layout)
            } else {
                Self.drawPlaceholder(on: canvas, layout: layout)
            }
            drawText(on: canvas, layout: layout, typesetter: typesetter)
            Self.drawWordmark(on: canvas, layout: layout, typesetter: typesetter)
            if watermark { Self.drawWatermark(on: canvas, layout: layout, typesetter: typesetter) }
        }
        return try PNGEncoder.encode(surface)
    }

    /// The cover's pixels; only PNG, since Cairo has no JPEG decoder.
    private static func decode(_ cover: DocumentImage) throws -> CairoSurface {
        guard cover.format == .png, let picture = CairoSurface(png: cover.data) else { throw DocumentError.unreadableImage(cover.name) }
        return picture
    }
}
