import BlockingWork
import CPangoCairo
import Documents
import Drawing
import Foundation
import KilnCore
import RenderingFixtures
import TalevoniaInputs
import Testing

@Suite struct ShareCardTests {
    static var goldenDirectory: URL { Bundle.module.resourceURL!.appendingPathComponent("Golden") }

    static let storySummary =
        "Élodie climbs the lighthouse’s 212 stairs, rides out the storm while the sailors sing “\(SampleDocuments.rightToLeft)”, "
        + "and wakes to a calm sea — one path of many through a story that branches at every chapter, where each choice "
        + "lights a different lamp and no two readers meet the same morning."

    /// The sample story's card, with a summary long enough to be cut with an ellipsis.
    static func storyCard(watermark: Bool, cover: Bool = true, title: String? = nil) throws -> ShareCard {
        let story = try SampleDocuments.story()
        return ShareCard(
            title: title ?? story.title,
            summary: storySummary,
            cover: cover ? story.cover : nil, byline: "by Mira · 3 chapters", watermark: watermark)
    }

    /// Where the free tier's pill is drawn, with a few pixels to spare around it.
    static func watermarkRegion(_ size: ShareCardSize) -> (x: Int, y: Int, width: Int, height: Int) {
        switch size {
        case .landscape: (830, 522, 320, 60)
        case .story: (300, 76, 480, 72)
        }
    }

    /// A summary too long for its lines ends after a whole word with an ellipsis, never inside one ("a sc…"), at the
    /// card's column widths and sizes, for each number of lines a long title leaves it.
    @Test(arguments: [(640.0, 24.0), (888.0, 34.0)], 1...4)
    func aCutSummaryEndsAfterAWholeWord(column: (width: Double, size: Double), lines: Int) throws {
        let summary = Self.storySummary
        let layout = Typesetter().layout(summary, size: column.size, width: column.width, maxLines: lines)
        let shown = String(cString: pango_layout_get_text(layout.pointer))
        #expect(Int(pango_layout_get_line_count(layout.pointer)) <= lines)
        try #require(shown.hasSuffix("…"), "\(shown)")
        let kept = String(shown.dropLast())
        #expect(summary.hasPrefix(kept), "\(kept)")
        let next = summary.dropFirst(kept.count).first
        #expect(next.map { !$0.isLetter && !$0.isNumber } == true, "cut inside a word: \(kept)…")
        #expect(kept.last?.isLetter == true || kept.last?.isNumber == true || kept.last == "”", "ends on a word: \(kept)…")
    }

    @Test(arguments: ShareCardSize.allCases)
    func eachSizeIsAPNGOfItsPixelSize(size: ShareCardSize) async throws {
        let card = try Self.storyCard(watermark: true)
        let (png, milliseconds) = try await BlockingExecutor.rendering.run {
            _ = try card.render(size)  // Fonts and glyphs load on the first card of a process.
            let start = ContinuousClock.now
            let png = try card.render(size)
            return (png, (ContinuousClock.now - start) / .milliseconds(1))
        }
        print("share card \(size.rawValue): \(String(format: "%.1f", milliseconds)) ms, \(png.count / 1024) KB")
        let decoded = try #require(CairoSurface(png: png))
        #expect(decoded.width == size.pixels.width)
        #expect(decoded.height == size.pixels.height)
    }

    /// Each size with and without the free tier's pill, compared with the committed golden picture. With
    /// `KILN_UPDATE_GOLDEN=1` the pictures are written into `Tests/Media/DocumentsTests/Golden` instead, to be looked at.
    @Test(arguments: ShareCardSize.allCases, [false, true])
    func eachSizeMatchesItsGoldenPicture(size: ShareCardSize, watermark: Bool) async throws {
        let card = try Self.storyCard(watermark: watermark)
        try await Self.expectGolden("card-\(size.rawValue)\(watermark ? "-free" : "")", card: card, size: size)
    }

    /// A Hebrew title with emoji (right-aligned, the accent bar on its right), a summary with Arabic, and no cover.
    @Test func mixedScriptsWithoutACoverMatchTheirGoldenPicture() async throws {
        let card = ShareCard(
            title: "\(SampleDocuments.rightToLeft) \(SampleDocuments.emoji)",
            summary: "The gulls said \(SampleDocuments.arabic), and Zoë answered in kind. 🌊", cover: nil, byline: "by Noa · 1 chapter",
            watermark: false)
        try await Self.expectGolden("card-mixed-scripts", card: card, size: .landscape)
    }

    /// The placeholder instead of a cover, and a title too long for three lines, cut with an ellipsis.
    @Test func aCardWithoutACoverShowsThePlaceholder() async throws {
        let title = "The Lantern Keeper’s Daughter and the Long Night of the Hundred Storms over the Sleeping Harbour of Émberfall"
        let card = try Self.storyCard(watermark: false, cover: false, title: title)
        try await Self.expectGolden("card-story-no-cover", card: card, size: .story)
    }

    @Test(arguments: ShareCardSize.allCases)
    func theWatermarkChangesOnlyItsPill(size: ShareCardSize) async throws {
        let (free, paid) = try await BlockingExecutor.rendering.run {
            (try Self.storyCard(watermark: true).render(size), try Self.storyCard(watermark: false).render(size))
        }
        let directory = try TemporaryDirectory()
        let freePicture = try Self.picture(free, in: directory, name: "free.png")
        let paidPicture = try Self.picture(paid, in: directory, name: "paid.png")
        let region = Self.watermarkRegion(size)
        let pill = freePicture.cropped(region).meanDifference(from: paidPicture.cropped(region))
        let rest = freePicture.blanked(region).meanDifference(from: paidPicture.blanked(region))
        #expect(pill > 40, "the pill region differs by \(pill)")
        #expect(rest < 0.01, "outside the pill the cards differ by \(rest)")
    }

    @Test func aJPEGCoverOrABrokenPNGIsRefused() throws {
        // A JPEG's start-of-image, baseline start-of-frame (16×16, three components) and a start of scan: enough for
        // DocumentImage, which reads headers only.
        let jpeg = try DocumentImage(
            baseName: "cover",
            data: [
                0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03,
                0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
                0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9,
            ])
        #expect(jpeg.format == .jpeg)
        #expect(throws: DocumentError.unreadableImage("cover.jpg")) {
            try ShareCard(title: "T", summary: "S", cover: jpeg, byline: nil, watermark: false).render(.landscape)
        }
        // A PNG's signature and header chunk, then a data chunk of garbage (with a wrong checksum) and the end chunk.
        let header = try SampleDocuments.picture("cover", color: RGBColor(0x000000)).data.prefix(33)
        let garbage: [UInt8] = [0, 0, 0, 4] + Array("IDAT".utf8) + [1, 2, 3, 4] + [0, 0, 0, 0]
        let end: [UInt8] = [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        let broken = try DocumentImage(baseName: "cover", data: Array(header) + garbage + end)
        #expect(throws: DocumentError.unreadableImage("cover.png")) {
            try ShareCard(title: "T", summary: "S", cover: broken, byline: nil, watermark: false).render(.story)
        }
    }

    /// Renders `card` and compares it with `Golden/<name>.png`, or writes it there with `KILN_UPDATE_GOLDEN=1`.
    static func expectGolden(_ name: String, card: ShareCard, size: ShareCardSize) async throws {
        let png = try await BlockingExecutor.rendering.run { try card.render(size) }
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name).png")
            try Data(png).write(to: source)
            return
        }
        let directory = try TemporaryDirectory()
        let rendered = try picture(png, in: directory, name: "\(name).png")
        let golden = try #require(Picture(png: goldenDirectory.appendingPathComponent("\(name).png").path), "no golden picture \(name)")
        // Font rendering may move an edge by a pixel between machines; a layout change moves far more.
        #expect(rendered.meanDifference(from: golden) < 1.5)
    }

    static func picture(_ png: [UInt8], in directory: TemporaryDirectory, name: String) throws -> Picture {
        let path = "\(directory.path)/\(name)"
        try Data(png).write(to: URL(fileURLWithPath: path))
        return try #require(Picture(png: path))
    }
}

extension Picture {
    /// The pixels of `region` alone.
    fileprivate func cropped(_ region: (x: Int, y: Int, width: Int, height: Int)) -> Picture {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(region.width * region.height * 3)
        for row in region.y..<(region.y + region.height) {
            let start = (row * width + region.x) * 3
            pixels += rgb[start..<(start + region.width * 3)]
        }
        return Picture(width: region.width, height: region.height, rgb: pixels)
    }

    /// The picture with `region` painted black, to compare what lies outside it.
    fileprivate func blanked(_ region: (x: Int, y: Int, width: Int, height: Int)) -> Picture {
        var pixels = rgb
        for row in region.y..<(region.y + region.height) {
            let start = (row * width + region.x) * 3
            pixels.replaceSubrange(start..<(start + region.width * 3), with: repeatElement(0, count: region.width * 3))
        }
        return Picture(width: width, height: height, rgb: pixels)
    }
}
