import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

@Suite struct PDFWriterTests {
    enum Sample: String, CaseIterable {
        case campaign, story

        func document() throws -> Document {
            switch self {
            case .campaign: try SampleDocuments.campaign()
            case .story: try SampleDocuments.story()
            }
        }
    }

    static var goldenDirectory: URL { Bundle.module.resourceURL!.appendingPathComponent("Golden") }

    /// Every paragraph (emoji aside), heading and table cell comes out of `pdftotext`: accents, curly quotes and dashes
    /// exactly, right-to-left words in their logical order.
    @Test(arguments: Sample.allCases)
    func theTextOfEveryParagraphHeadingAndCellExtracts(sample: Sample) async throws {
        let document = try sample.document()
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let text = try await Self.output(["pdftotext", "-enc", "UTF-8", pdf, "-"])
        let extracted = Self.normalized(text)
        for paragraph in SampleDocuments.paragraphs(of: document) {
            let expected = Self.normalized(paragraph.replacingOccurrences(of: SampleDocuments.emoji, with: ""))
            // Poppler rebuilds a line's logical order from the drawn glyphs and wraps right-to-left runs in embedding
            // marks, moving the neutral quotes and spaces next to them into the run ("“ ”שלום עולםand"): compare
            // those paragraphs' letters and digits, in order, and the others exactly.
            if expected.unicodeScalars.contains(where: Self.isRightToLeft) {
                #expect(Self.lettersAndDigits(of: extracted).contains(Self.lettersAndDigits(of: expected)), "\(expected)")
            } else {
                #expect(extracted.contains(expected))
            }
        }
        for phrase in [SampleDocuments.rightToLeft, SampleDocuments.arabic]
        where document.sections.contains(where: { section in
            section.blocks.contains { if case .paragraph(let text) = $0 { text.contains(phrase) } else { false } }
        }) {
            #expect(extracted.contains(phrase), "\(phrase) in logical order")
        }
        let lines = Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        for heading in document.sections.compactMap(\.heading) {
            #expect(lines.contains(heading))
        }
        for case .table(let table) in document.sections.flatMap(\.blocks) {
            for cell in table.header + table.rows.flatMap({ $0 }) {
                #expect(lines.contains(cell))
            }
        }
        #expect(lines.contains("page 2"))
        #expect(!text.contains("🐉"), "Cairo 1.16 draws colour emoji as pictures; this test wants to know when that changes")
    }

    /// Cairo 1.16 draws colour emoji as small bitmaps rather than text (see PDFPageFlow): both of the campaign's emoji
    /// are on page 2 as pictures of about their text size, beside the map.
    @Test func emojiAreDrawnAsSmallPictures() async throws {
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(try SampleDocuments.campaign(), in: directory)
        let images = try await Self.images(in: pdf)
        let emoji = images.filter { $0.type == "image" && $0.width <= 32 && $0.height <= 32 }
        #expect(emoji.count == 2)
        #expect(emoji.allSatisfy { $0.page == 2 })
        #expect(images.contains { $0.width == 320 && $0.height == 200 })
    }

    @Test(arguments: Sample.allCases)
    func everyFontIsEmbeddedAndInterIsAmongThem(sample: Sample) async throws {
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(try sample.document(), in: directory)
        let table = try await Self.output(["pdffonts", pdf]).split(separator: "\n").map(String.init)
        let header = try #require(table.first)
        let embedded = try #require(header.range(of: "emb")).lowerBound.utf16Offset(in: header)
        let fonts = table.dropFirst(2)
        #expect(!fonts.isEmpty)
        for font in fonts {
            #expect(String(font.dropFirst(embedded).prefix(3)) == "yes", "\(font)")
        }
        #expect(fonts.contains { $0.contains("Inter-Regular") })
        #expect(fonts.contains { $0.contains("Inter-Bold") })
    }

    /// Title, author and creator in the document information, and one bookmark per section, each opening its page.
    @Test func metadataAndOutline() async throws {
        let document = try SampleDocuments.campaign()
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let info = try await Self.output(["pdfinfo", pdf])
        #expect(info.contains("Title:           The Dragon of Émberfall\n"))
        #expect(info.contains("Author:          Aria’s player\n"))
        #expect(info.contains("Creator:         Kiln\n"))
        #expect(info.contains("Pages:           2\n"))
        #expect(info.contains("Page size:       595 x 842 pts (A4)"))
        let outline = try await Self.outline(of: pdf)
        #expect(outline.map(\.title) == document.sections.compactMap(\.heading))
        #expect(outline.allSatisfy { $0.page == 2 })
    }

    /// A JPEG goes into the PDF byte for byte (a DCT image); a picture shown twice, on different pages, is one object.
    @Test func aJPEGIsEmbeddedAsItIsAndAPictureShownTwiceIsStoredOnce() async throws {
        let directory = try TemporaryDirectory()
        let jpegPath = directory.path + "/red.jpg"
        _ = try await Command.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=160x100", "-frames:v", "1", jpegPath])
        let jpegBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        let photo = try DocumentImage(baseName: "photo", data: jpegBytes)
        let map = try SampleDocuments.picture("image-1", color: RGBColor(0x2E6B3F))
        let filler = Array(repeating: DocumentBlock.paragraph(SampleDocuments.accented), count: 60)
        let document = Document(
            identifier: "pictures", title: "Pictures",
            sections: [
                DocumentSection(heading: "First", blocks: [.image(photo, caption: "A red photo"), .image(map, caption: nil)] + filler),
                DocumentSection(heading: "Again", blocks: [.image(photo, caption: nil), .image(map, caption: "The map again")]),
            ])
        let pdf = try await Self.write(document, in: directory)
        let images = try await Self.images(in: pdf)
        let jpegs = images.filter { $0.encoding == "jpeg" }
        #expect(jpegs.count == 2)
        #expect(Set(jpegs.map(\.page)).count == 2, "shown on two pages")
        #expect(Set(jpegs.map(\.object)).count == 1, "stored once")
        #expect(jpegs.allSatisfy { $0.width == 160 && $0.height == 100 })
        let maps = images.filter { $0.width == 320 && $0.height == 200 && $0.type == "image" }
        #expect(maps.count == 2)
        #expect(Set(maps.map(\.object)).count == 1)
        // `pdfimages -j` writes DCT streams out as they are.
        _ = try await Command.run(["pdfimages", "-j", "-f", "2", "-l", "2", pdf, directory.path + "/extracted"])
        let extracted = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix("extracted") && $0.hasSuffix(".jpg")
        }
        #expect(extracted.count == 1)
        let embedded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + #require(extracted.first))))
        // As it is, less the metadata every document's pictures lose (ffmpeg's comment segment here).
        #expect(embedded == (try DocumentImage(baseName: "photo", data: jpegBytes)).data)
    }

    /// A paragraph in a right-to-left script aligns right; a left-to-right one left.
    @Test func aRightToLeftParagraphAlignsRight() async throws {
        let document = Document(
            identifier: "directions", title: "Directions",
            sections: [
                DocumentSection(
                    heading: nil,
                    blocks: [
                        .paragraph("\(SampleDocuments.rightToLeft) \(SampleDocuments.rightToLeft)"), .paragraph("Left to right"),
                    ])
            ])
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let boxes = try await Self.output(["pdftotext", "-enc", "UTF-8", "-bbox", "-f", "2", "-l", "2", pdf, "-"])
        // Poppler boxes right-to-left text letter by letter: the extent of each line's boxes, top to bottom.
        var lines: [Double: (left: Double, right: Double)] = [:]
        for box in boxes.matches(of: /xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)"/) {
            guard let left = Double(box.output.1), let top = Double(box.output.2), let right = Double(box.output.3) else { continue }
            let line = lines[top.rounded(), default: (left, right)]
            lines[top.rounded()] = (min(line.left, left), max(line.right, right))
        }
        let extents = lines.sorted { $0.key < $1.key }.map(\.value)
        try #require(extents.count == 3, "two paragraphs and the footer")
        // The column runs from 64 to 531 points.
        #expect(abs(extents[0].right - 531) < 2)
        #expect(extents[0].left > 300)
        #expect(abs(extents[1].left - 64) < 2)
        #expect(extents[1].right < 300)
    }

    /// Pictures of many heights push the headings to every height on their pages; each heading is on the page of its
    /// paragraph's first line.
    @Test func aHeadingNeverSitsAloneAtTheBottomOfAPage() async throws {
        let filler = SampleDocuments.paragraphs(of: try SampleDocuments.campaign()).joined(separator: " ")
        let sections = try (1...60).map { scene in
            // As wide as the column (467 points), so a pixel is a point; 37 points a step, not a multiple of a line.
            let picture = try SampleDocuments.picture("spacer-\(scene)", width: 467, height: 20 + scene * 37 % 380, color: RGBColor(0x888888))
            return [
                DocumentSection(heading: nil, blocks: [.image(picture, caption: nil)]),
                DocumentSection(heading: "Scene #\(scene)", blocks: [.paragraph("Scene \(scene) opens here. \(filler)")]),
            ]
        }
        let document = Document(identifier: "headings", title: "Headings", sections: sections.flatMap { $0 })
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let pages = try await Self.output(["pdftotext", "-enc", "UTF-8", pdf, "-"]).split(separator: "\u{0C}", omittingEmptySubsequences: false)
        let outline = try await Self.outline(of: pdf)
        #expect(outline.count == 60)
        for (scene, entry) in zip(1..., outline) {
            let opening = pages.firstIndex { $0.contains("Scene \(scene) opens here.") }.map { $0 + 1 }
            #expect(entry.page == opening, "\(entry.title)")
        }
    }

    /// A campaign titled after its character, played by that character, names it once on the title page (in the PDF and
    /// the plain text alike), while the PDF's metadata keeps its author; another author is named under the subtitle.
    @Test func theTitlePageNamesTheCharacterOnce() async throws {
        let sections = [DocumentSection(heading: "Scene 1", blocks: [.paragraph("The bells ring under the sea.")])]
        let named = Document(
            identifier: "named", title: "Kael Ashford", subtitle: "A WorldArchitect campaign", author: " kael ashford", sections: sections)
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(named, in: directory)
        let titlePage = try await Self.output(["pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", pdf, "-"])
        #expect(titlePage.lowercased().components(separatedBy: "kael ashford").count == 2, "\(titlePage)")
        #expect(titlePage.contains("A WorldArchitect campaign"))
        #expect(try await Self.output(["pdfinfo", pdf]).contains("kael ashford"), "the metadata keeps the author")
        let text = String(decoding: PlainTextWriter().write(named), as: UTF8.self)
        #expect(text.lowercased().components(separatedBy: "kael ashford").count == 2, "\(text)")

        var byAnother = named
        byAnother.author = "Mira"
        let other = try await Self.output(["pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", try await Self.write(byAnother, in: directory), "-"])
        #expect(other.contains("Mira") && other.contains("Kael Ashford"))
    }

    /// A character sheet whose inventory runs long: each short cell and heading stays whole on one line ("Class", not
    /// "Clas-" and "s"); only the long column wraps, between words.
    @Test func tableColumnsAreSizedToTheirContent() async throws {
        let document = Document(
            identifier: "sheet", title: "Sheet",
            sections: [DocumentSection(heading: "Character sheet", blocks: [.table(SampleDocuments.characterSheet)])])
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let text = try await Self.output(["pdftotext", "-enc", "UTF-8", "-f", "2", "-l", "2", pdf, "-"])
        let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        let table = SampleDocuments.characterSheet
        for cell in table.header + table.rows.flatMap({ $0.dropLast() }) {
            #expect(words.contains(cell), "\(cell) broken: \(text)")
        }
        #expect(!words.contains { $0.hasSuffix("-") }, "a word broken with a hyphen: \(text)")
        let inventory = try #require(table.rows.first?.last)
        for word in inventory.split(separator: " ") {
            #expect(words.contains(String(word)), "\(word) broken: \(text)")
        }
    }

    /// Paragraphs of two to eight lines, pushed to every height of their pages by pictures: no page starts with the last
    /// line of a paragraph alone (a widow) or ends with its first line alone (an orphan).
    @Test func noParagraphLeavesALoneLineAtAPagesFootOrHead() async throws {
        var blocks: [DocumentBlock] = []
        for paragraph in 1...90 {
            // Words of 4 to 5 characters, each naming its paragraph, so every line says which paragraph it is of.
            let words = (1...(12 + paragraph * 7 % 60)).map { "p\(paragraph)w\($0)" }
            if paragraph % 3 == 0 {
                let picture = try SampleDocuments.picture(
                    "spacer-\(paragraph)", width: 467, height: 20 + paragraph * 29 % 300, color: RGBColor(0x888888))
                blocks.append(.image(picture, caption: nil))
            }
            blocks.append(.paragraph(words.joined(separator: " ")))
        }
        let document = Document(identifier: "lines", title: "Lines", sections: [DocumentSection(heading: nil, blocks: blocks)])
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(document, in: directory)
        let pages = try await Self.output(["pdftotext", "-enc", "UTF-8", "-raw", pdf, "-"]).split(separator: "\u{0C}").map { page in
            // Each body line's paragraph, from its first word ("p12w40" → 12); the footer has none.
            page.split(whereSeparator: \.isNewline).compactMap { line in
                line.firstMatch(of: /^p(\d+)w\d+/).flatMap { Int($0.output.1) }
            }
        }
        #expect(pages.count > 5)
        for (page, next) in zip(pages, pages.dropFirst()) {
            guard let last = page.last, next.first == last else { continue }
            // Paragraph `last` runs from this page onto the next.
            #expect(page.filter { $0 == last }.count >= 2, "paragraph \(last) leaves its first line alone at a page's foot")
            #expect(next.filter { $0 == last }.count >= 2, "paragraph \(last) leaves its last line alone at a page's head")
        }
    }

    /// Page 1 at 50 dpi against the committed picture: the campaign's title page, and the story's with its cover.
    /// With `KILN_UPDATE_GOLDEN=1` the pictures are written into `Tests/Media/DocumentsTests/Golden` instead.
    @Test(arguments: Sample.allCases)
    func theTitlePageMatchesItsGoldenPicture(sample: Sample) async throws {
        let directory = try TemporaryDirectory()
        let pdf = try await Self.write(try sample.document(), in: directory)
        _ = try await Command.run(["pdftoppm", "-r", "50", "-f", "1", "-l", "1", "-png", "-singlefile", pdf, directory.path + "/page1"])
        let rendered = directory.path + "/page1.png"
        let name = "pdf-\(sample.rawValue)-page1.png"
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
            try? FileManager.default.removeItem(at: source)
            try FileManager.default.copyItem(atPath: rendered, toPath: source.path)
            return
        }
        let golden = try #require(Picture(png: Self.goldenDirectory.appendingPathComponent(name).path), "no golden picture \(name)")
        let picture = try #require(Picture(png: rendered))
        try #require(picture.width == golden.width && picture.height == golden.height)
        // Font rendering may move an edge by a pixel between machines; a layout change moves far more.
        #expect(picture.meanDifference(from: golden) < 2)
    }

    /// About 200 pages: scenes flow on from page to page, with a footer on each, a bookmark per scene on the page its
    /// heading is on, a long table whose header repeats on each of its pages, and the map shown every tenth scene stored
    /// once. Prints how long the writing took (the test asserts no time).
    @Test func aLongDocumentFlowsAcrossPages() async throws {
        let document = try Self.longDocument(scenes: 200, tableRows: 80)
        let (bytes, seconds) = try await BlockingExecutor.rendering.run {
            let start = ContinuousClock.now
            let bytes = try PDFWriter().write(document)
            return (bytes, (ContinuousClock.now - start) / .seconds(1))
        }
        let directory = try TemporaryDirectory()
        let pdf = directory.path + "/long.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: pdf))
        let info = try await Self.output(["pdfinfo", pdf])
        let pages = try #require(info.firstMatch(of: /Pages:\s+(\d+)/).flatMap { Int($0.output.1) })
        print("PDFWriter: \(pages) pages, \(bytes.count / 1024) KiB in \(String(format: "%.2f", seconds)) s")
        #expect(pages > 190)

        let text = try await Self.output(["pdftotext", "-enc", "UTF-8", "-raw", pdf, "-"])
        let pageTexts = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).prefix(pages).map { page in
            page.split(whereSeparator: \.isNewline).map(String.init)
        }
        #expect(pageTexts.count == pages)
        let headings = Set(document.sections.compactMap(\.heading))
        var headingPages: [String: Int] = [:]
        for (index, lines) in pageTexts.enumerated() where index > 0 {
            // The footer is drawn last, the title and the page number on one baseline.
            #expect(lines.last == "\(document.title) page \(index + 1)")
            for line in lines.dropLast() where headings.contains(line) { headingPages[line] = index + 1 }
        }
        let outline = try await Self.outline(of: pdf)
        #expect(outline.count == headings.count)
        for entry in outline {
            #expect(headingPages[entry.title] == entry.page, "\(entry.title)")
        }

        let tablePages = pageTexts.indices.filter { pageTexts[$0].contains { $0.hasPrefix("Hero ") } }
        #expect(tablePages.count >= 2)
        for page in tablePages {
            #expect(pageTexts[page].contains { $0.contains("Inventory") }, "the header on page \(page + 1)")
        }
        let images = try await Self.images(in: pdf)
        let maps = images.filter { $0.width == 320 && $0.type == "image" }
        #expect(maps.count == 20)
        #expect(Set(maps.map(\.object)).count == 1)
    }

    // MARK: - Helpers

    /// Scenes of three to seven long paragraphs and a short one (so headings land all over their pages), the map every
    /// tenth, then a character sheet of `tableRows` heroes.
    static func longDocument(scenes: Int, tableRows: Int) throws -> Document {
        let campaign = try SampleDocuments.campaign()
        let paragraphs = SampleDocuments.paragraphs(of: campaign)
        let text = Array(repeating: paragraphs.joined(separator: " "), count: 2).joined(separator: " ")
        let map = try SampleDocuments.picture("image-1", color: RGBColor(0x2E6B3F))
        let sections = (1...scenes).map { scene in
            let blocks = Array(repeating: DocumentBlock.paragraph(text), count: 3 + scene % 5) + [.paragraph(paragraphs[scene % paragraphs.count])]
            return DocumentSection(heading: "Scene #\(scene)", blocks: blocks + (scene % 10 == 0 ? [.image(map, caption: "The map, once more")] : []))
        }
        let table = DocumentTable(
            header: ["Name", "Class", "Level", "HP", "Inventory"],
            rows: (1...tableRows).map { hero in
                ["Hero \(hero)", "Rogue", "\(hero % 20 + 1)", "18/24", "Dagger, rope, map"]
            })
        return Document(
            identifier: "long", title: campaign.title, author: campaign.author,
            sections: sections + [DocumentSection(heading: "Character sheet", blocks: [.table(table)])])
    }

    /// Writes `document` on a thread of its own into `directory`; the file's path.
    static func write(_ document: Document, in directory: TemporaryDirectory) async throws -> String {
        let bytes = try await BlockingExecutor.rendering.run { try PDFWriter().write(document) }
        let path = directory.path + "/document.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func output(_ command: [String]) async throws -> String {
        String(decoding: try await Command.run(command), as: UTF8.self)
    }

    /// One row of `pdfimages -list`.
    struct ListedImage {
        let page: Int
        let type: String
        let width: Int
        let height: Int
        let encoding: String
        let object: Int
    }

    static func images(in pdf: String) async throws -> [ListedImage] {
        try await output(["pdfimages", "-list", pdf]).split(separator: "\n").dropFirst(2).map { line in
            let columns = line.split(separator: " ").map(String.init)
            try #require(columns.count >= 11, "\(line)")
            return ListedImage(
                page: Int(columns[0]) ?? 0, type: columns[2], width: Int(columns[3]) ?? 0, height: Int(columns[4]) ?? 0,
                encoding: columns[8], object: Int(columns[10]) ?? 0)
        }
    }

    /// The bookmarks, in order, with the page each opens: what `pdftohtml -xml` prints of the outline.
    static func outline(of pdf: String) async throws -> [(title: String, page: Int)] {
        let xml = try await output(["pdftohtml", "-xml", "-i", "-stdout", pdf])
        return xml.matches(of: /<item page="(\d+)">([^<]*)<\/item>/).map { match in
            (String(match.output.2), Int(match.output.1) ?? 0)
        }
    }

    /// Without poppler's bidi embedding marks, whitespace (line breaks) collapsed to single spaces.
    static func normalized(_ text: String) -> String {
        let marks = Set("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{200E}\u{200F}".unicodeScalars)
        let unmarked = String(String.UnicodeScalarView(text.unicodeScalars.filter { !marks.contains($0) }))
        return unmarked.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func lettersAndDigits(of text: String) -> String {
        String(text.filter { $0.isLetter || $0.isNumber })
    }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        (0x0590...0x08FF).contains(scalar.value)
    }
}
