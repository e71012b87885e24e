import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

/// Books checked with epubcheck (what stores such as Apple Books run on submission) and read back with unzip.
@Suite struct EPUBWriterTests {
    /// 2023-11-14 22:13:20 UTC.
    static let modified = Date(timeIntervalSince1970: 1_700_000_000)

    static func write(_ document: Document, to path: String) async throws {
        let started = ContinuousClock.now
        let bytes = try await BlockingExecutor.rendering.run { try EPUBWriter().write(document, modified: Self.modified) }
        print("EPUBWriter wrote \(document.title) (\(bytes.count) bytes) in \(ContinuousClock.now - started)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func entry(_ name: String, of path: String) async throws -> String {
        String(decoding: try await Command.run(["unzip", "-p", path, name]), as: UTF8.self)
    }

    /// epubcheck's report, stdout and stderr together, with its exit status last so a failure shows every message.
    static func epubcheck(_ path: String) async throws -> String {
        let started = ContinuousClock.now
        let report = try await Command.run(["sh", "-c", #"java -jar /usr/share/java/epubcheck.jar "$0" 2>&1; echo "exit status $?""#, path])
        print("epubcheck \(URL(fileURLWithPath: path).lastPathComponent) took \(ContinuousClock.now - started)")
        return String(decoding: report, as: UTF8.self)
    }

    /// Each JVM takes about 25 s to start, so both books are checked at once.
    @Test func epubcheckFindsNoErrorsOrWarningsInTheStoryOrTheCampaign() async throws {
        let directory = try TemporaryDirectory()
        let story = directory.path + "/story.epub"
        let campaign = directory.path + "/campaign.epub"
        try await Self.write(try SampleDocuments.story(), to: story)
        try await Self.write(try SampleDocuments.campaign(), to: campaign)

        async let storyReport = Self.epubcheck(story)
        async let campaignReport = Self.epubcheck(campaign)
        for report in try await [storyReport, campaignReport] {
            #expect(report.contains("No errors or warnings detected"), "\(report)")
            #expect(report.hasSuffix("exit status 0\n"), "\(report)")
            #expect(!report.contains("ERROR") && !report.contains("WARNING"), "\(report)")
        }
    }

    /// Reading systems identify a book by its first bytes: a stored "mimetype" entry without extra field, so that
    /// "mimetypeapplication/epub+zip" sits at offset 30.
    @Test func theFirstEntryIsTheStoredMimetype() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/story.epub"
        try await Self.write(try SampleDocuments.story(), to: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))

        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(bytes[8..<10] == [0, 0])  // method 0: stored
        #expect(bytes[28..<30] == [0, 0])  // no extra field
        #expect(String(decoding: bytes[30..<58], as: UTF8.self) == "mimetypeapplication/epub+zip")
        let names = String(decoding: try await Command.run(["unzip", "-Z1", path]), as: UTF8.self).split(separator: "\n")
        #expect(names.first == "mimetype")
        #expect(names.contains("OEBPS/images/cover.png"))
        #expect(names.contains("OEBPS/images/image-2.png"))
    }

    @Test func theChaptersHoldTheRightToLeftAndEmojiTextAndThePicture() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/story.epub"
        try await Self.write(try SampleDocuments.story(), to: path)

        let first = try await Self.entry("OEBPS/section-1.xhtml", of: path)
        #expect(first.contains("<h1 dir=\"auto\">The lighthouse</h1>"))
        let lighthouse = "Élodie climbed the stairs — 212 of them — and said “hello” to the lamp. \(SampleDocuments.emoji)"
        #expect(first.contains("<p dir=\"auto\">\(lighthouse)</p>"))
        let second = try await Self.entry("OEBPS/section-2.xhtml", of: path)
        #expect(second.contains("its sailors sang \(SampleDocuments.rightToLeft).</p>"))
        #expect(second.contains(#"<figure><img src="images/image-2.png" alt="Illustration for The storm"/></figure>"#))
        let third = try await Self.entry("OEBPS/section-3.xhtml", of: path)
        #expect(third.contains("the gulls said \(SampleDocuments.arabic).</p>"))
        #expect(third.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(third.contains(#"lang="en" xml:lang="en""#))

        let titlePage = try await Self.entry("OEBPS/title.xhtml", of: path)
        #expect(titlePage.contains(#"<img src="images/cover.png" alt="The Lantern Keeper’s Daughter"/>"#))
        #expect(titlePage.contains("<p class=\"author\" dir=\"auto\">Mira</p>"))
    }

    @Test func thePackageDocumentDescribesTheBook() async throws {
        let directory = try TemporaryDirectory()
        let story = directory.path + "/story.epub"
        let campaign = directory.path + "/campaign.epub"
        try await Self.write(try SampleDocuments.story(), to: story)
        try await Self.write(try SampleDocuments.campaign(), to: campaign)

        let storyPackage = try await Self.entry("OEBPS/content.opf", of: story)
        #expect(storyPackage.contains(#"<dc:identifier id="book-id">urn:uuid:7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f</dc:identifier>"#))
        #expect(storyPackage.contains("<dc:title>The Lantern Keeper’s Daughter</dc:title>"))
        #expect(storyPackage.contains("<dc:creator>Mira</dc:creator>"))
        #expect(storyPackage.contains("<dc:language>en</dc:language>"))
        #expect(storyPackage.contains(#"<meta property="dcterms:modified">2023-11-14T22:13:20Z</meta>"#))
        #expect(storyPackage.contains(#"href="images/cover.png" media-type="image/png" properties="cover-image""#))

        let campaignPackage = try await Self.entry("OEBPS/content.opf", of: campaign)
        #expect(!campaignPackage.contains("cover-image"))
        #expect(campaignPackage.contains("<dc:creator>Aria’s player</dc:creator>"))
        let campaignNavigation = try await Self.entry("OEBPS/nav.xhtml", of: campaign)
        #expect(campaignNavigation.contains(#"<nav epub:type="toc" id="toc">"#))
        for (index, heading) in ["Scene #1", "Scene #2", "Scene #3", "Character sheet"].enumerated() {
            #expect(campaignNavigation.contains(#"<li><a href="section-\#(index + 1).xhtml">\#(heading)</a></li>"#))
        }
        let sheet = try await Self.entry("OEBPS/section-4.xhtml", of: campaign)
        #expect(sheet.contains(#"<th scope="col" dir="auto">Inventory</th>"#))
        #expect(sheet.contains(#"<td dir="auto">Aria Zoë</td>"#))
    }

    @Test func aSectionWithoutHeadingIsListedAsItsPartNumber() async throws {
        let document = Document(
            identifier: "not-a-uuid", title: "Runs & <on>", language: "fr",
            sections: [
                DocumentSection(heading: "Début", blocks: [.paragraph("Il était une fois…")]),
                // A vertical tab and U+FFFE have no place in XML: they are dropped rather than breaking the page.
                DocumentSection(heading: nil, blocks: [.paragraph("Et\u{0B} puis \"enfin\" l'été…\u{FFFE}")]),
            ])
        let directory = try TemporaryDirectory()
        let path = directory.path + "/book.epub"
        try await Self.write(document, to: path)

        let navigation = try await Self.entry("OEBPS/nav.xhtml", of: path)
        #expect(navigation.contains(#"<li><a href="section-2.xhtml">Part 2</a></li>"#))
        #expect(navigation.contains(#"lang="fr" xml:lang="fr""#))
        let package = try await Self.entry("OEBPS/content.opf", of: path)
        #expect(package.contains(#"<dc:identifier id="book-id">not-a-uuid</dc:identifier>"#))
        #expect(package.contains("<dc:title>Runs &amp; &lt;on&gt;</dc:title>"))
        #expect(!package.contains("dc:creator"))
        let second = try await Self.entry("OEBPS/section-2.xhtml", of: path)
        #expect(second.contains("<title>Part 2</title>"))
        #expect(!second.contains("<h1"))
        #expect(second.contains("<p dir=\"auto\">Et puis &quot;enfin&quot; l&apos;été…</p>"))
    }

    @Test func theSameDocumentAndTimeGiveTheSameBytes() throws {
        let document = try SampleDocuments.story()
        #expect(try EPUBWriter().write(document, modified: Self.modified) == EPUBWriter().write(document, modified: Self.modified))
    }
}
