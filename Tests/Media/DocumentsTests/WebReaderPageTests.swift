import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import TalevoniaInputs
import Testing
import WebReader

@Suite struct WebReaderPageTests {
    static let pageURL = "https://kiln.example.com/s/Lk3vQ9"
    static let cardURL = "https://kiln.example.com/s/Lk3vQ9/card.png"
    static func imageURL(_ image: DocumentImage) -> String { "https://kiln.example.com/s/Lk3vQ9/\(image.name)" }

    static func page(_ document: Document) -> WebReaderPage {
        WebReaderPage(document: document, pageURL: pageURL, cardURL: cardURL, imageURL: imageURL)
    }

    @Test func everyTextOfTheStoryIsOnThePageEscaped() throws {
        for document in [try SampleDocuments.story(), try SampleDocuments.campaign()] {
            let html = Self.page(document).html
            for paragraph in SampleDocuments.paragraphs(of: document) {
                #expect(html.contains("<p dir=\"auto\">\(paragraph.xmlEscaped)</p>"), "\(paragraph)")
            }
            for heading in document.sections.compactMap(\.heading) {
                #expect(html.contains("<h2 dir=\"auto\">\(heading.xmlEscaped)</h2>"))
            }
            #expect(html.contains("<h1 dir=\"auto\">\(document.title.xmlEscaped)</h1>"))
            #expect(html.contains("<html lang=\"\(document.language)\">"))
            #expect(Self.unbalancedTags(in: html) == [])
        }
        let campaign = Self.page(try SampleDocuments.campaign()).html
        #expect(campaign.contains("<th scope=\"col\" dir=\"auto\">Inventory</th>"))
        #expect(campaign.contains("<td dir=\"auto\">Aria Zoë</td>"))
        #expect(campaign.contains("<figcaption dir=\"auto\">The map to the ruins</figcaption>"))
        #expect(campaign.contains("<p class=\"subtitle\" dir=\"auto\">A WorldArchitect campaign</p>"))
    }

    @Test func picturesHaveTheirSizeSoTheTextDoesNotJump() throws {
        let document = try SampleDocuments.story()
        let html = Self.page(document).html
        let cover = try #require(document.cover)
        #expect(
            html.contains("<img class=\"cover\" src=\"\(Self.imageURL(cover))\" alt=\"The Lantern Keeper’s Daughter\" width=\"400\" height=\"600\">"))
        #expect(
            html.contains(
                "<figure><img src=\"https://kiln.example.com/s/Lk3vQ9/image-2.png\" alt=\"Illustration for The storm\" loading=\"lazy\" "
                    + "width=\"320\" height=\"200\">"))
    }

    /// A screen reader names every picture: the cover by the story's title, an illustration by its caption, else by its
    /// node's title (the story's for a node without one). No picture is hidden as decoration.
    @Test func everyPictureHasMeaningfulAlternativeText() throws {
        let story = Self.page(try SampleDocuments.story()).html
        let campaign = Self.page(try SampleDocuments.campaign()).html
        #expect(Self.alternativeTexts(in: story) == ["The Lantern Keeper’s Daughter", "Illustration for The storm"])
        #expect(Self.alternativeTexts(in: campaign) == ["The map to the ruins"])
        let picture = try SampleDocuments.picture("untitled", color: RGBColor(0x336699))
        let untitled = Document(
            identifier: "u", title: "Night & <Day>", sections: [DocumentSection(heading: nil, blocks: [.image(picture, caption: nil)])])
        #expect(Self.alternativeTexts(in: Self.page(untitled).html) == ["Illustration for Night &amp; &lt;Day&gt;"])
    }

    /// Each `<img>`'s `alt`, as written (escaped), in order.
    static func alternativeTexts(in html: String) -> [String] {
        html.matches(of: /<img [^>]*alt="([^"]*)"/).map { String($0.output.1) }
    }

    @Test func theLinkPreviewTagsCarryTheGivenAddresses() throws {
        let document = try SampleDocuments.story()
        let html = Self.page(document).html
        let firstParagraph = try #require(SampleDocuments.paragraphs(of: document).first)
        for tag in [
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"robots\" content=\"noindex\">",
            "<meta name=\"referrer\" content=\"no-referrer\">",
            "<title>The Lantern Keeper’s Daughter · Talevonia</title>",
            "<meta property=\"og:type\" content=\"article\">",
            "<meta property=\"og:title\" content=\"The Lantern Keeper’s Daughter\">",
            "<meta property=\"og:description\" content=\"\(firstParagraph.xmlEscaped)\">",
            "<meta property=\"og:url\" content=\"\(Self.pageURL)\">",
            "<meta property=\"og:image\" content=\"\(Self.cardURL)\">",
            "<meta property=\"og:image:width\" content=\"1200\">",
            "<meta property=\"og:image:height\" content=\"630\">",
            "<meta property=\"og:image:alt\" content=\"“The Lantern Keeper’s Daughter” on Talevonia\">",
            "<meta name=\"twitter:card\" content=\"summary_large_image\">",
        ] {
            #expect(html.contains(tag), "\(tag)")
        }
    }

    /// The link preview says what the share card says: its summary when the story has one, cut the same way.
    @Test func thePreviewIsTheSummaryTheCardShows() throws {
        let document = try SampleDocuments.story()
        let summary = "A lighthouse, a storm, a calm morning & what the keeper's daughter <found>."
        let html = WebReaderPage(document: document, pageURL: Self.pageURL, cardURL: Self.cardURL, summary: summary, imageURL: Self.imageURL).html
        #expect(html.contains("<meta property=\"og:description\" content=\"\(summary.xmlEscaped)\">"))
        #expect(html.contains("<meta name=\"description\" content=\"\(summary.xmlEscaped)\">"))
        let blank = WebReaderPage(document: document, pageURL: Self.pageURL, cardURL: Self.cardURL, summary: "  ", imageURL: Self.imageURL).html
        let firstParagraph = try #require(SampleDocuments.paragraphs(of: document).first)
        #expect(blank.contains("<meta property=\"og:description\" content=\"\(firstParagraph.xmlEscaped)\">"))
    }

    @Test func aLongFirstParagraphIsCutAtAWordForThePreview() throws {
        let paragraph = (1...60).map { "word\($0)," }.joined(separator: " ")
        let document = Document(identifier: "x", title: "Long", sections: [DocumentSection(heading: nil, blocks: [.paragraph(paragraph)])])
        let html = Self.page(document).html
        let description = try #require(Self.attribute("content", of: "<meta property=\"og:description\"", in: html))
        #expect(description.count <= 200)
        #expect(description.count > 180)
        #expect(description.hasSuffix("…"))
        // Whole words only, and no comma left dangling before the ellipsis.
        let kept = String(description.dropLast())
        #expect(paragraph.hasPrefix(kept + ","))
        #expect(!kept.hasSuffix(","))
    }

    @Test func nothingOnThePagesLoadsFromElsewhere() throws {
        let documents = [try SampleDocuments.campaign(), try SampleDocuments.story()]
        let allowed = Set([Self.pageURL, Self.cardURL] + documents.flatMap(\.images).map(Self.imageURL))
        let loaders = ["<script", "<link", "<a ", "<iframe", "<object", "<embed", "<base", "<form", "@import", "@font-face", "url(h", "url(/"]
        for html in documents.map({ Self.page($0).html }) + [NoticePage.goneHTML, NoticePage.notFoundHTML] {
            for forbidden in loaders {
                #expect(!html.lowercased().contains(forbidden), "\(forbidden)")
            }
            // What the browser fetches, and addresses in meta tags (a relative one would resolve against the page).
            for match in html.matches(of: #/(?:src|href)="([^"]*)"/#) {
                #expect(allowed.contains(String(match.1)), "\(match.1)")
            }
            for match in html.matches(of: #/content="([^"]*)"/#) where match.1.contains(":/") || match.1.hasPrefix("/") {
                #expect(allowed.contains(String(match.1)), "\(match.1)")
            }
            // Any address at all, in an attribute, the style or the text, is one of the page's own.
            for match in html.matches(of: #/https?://[^"\s<)]*/#) {
                #expect(allowed.contains(String(match.0)), "\(match.0)")
            }
        }
    }

    @Test func aHostileStoryStaysText() throws {
        let picture = try SampleDocuments.picture("image-1", color: RGBColor(0x333333))
        let document = Document(
            identifier: "x", title: "<script>alert(1)</script>", subtitle: "\"><img src=x onerror=alert(1)>", author: "' onmouseover='alert(1)",
            language: "en\"><script>",
            sections: [
                DocumentSection(
                    heading: "</h2><a href=\"https://evil.example\">click</a>",
                    blocks: [
                        .paragraph("<iframe src=\"https://evil.example\"></iframe> & <style>body{display:none}</style>"),
                        .image(picture, caption: "\" onload=\"alert(1)"),
                        .table(DocumentTable(header: ["<b>"], rows: [["</table><script>"]])),
                    ])
            ])
        let html = Self.page(document).html
        #expect(html.contains("<h1 dir=\"auto\">&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt; · Talevonia</title>"))
        for forbidden in ["<script", "<img src=x", "<a ", "<iframe", "<b>", "onload=\"", "onmouseover='", "<style>body"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(Self.unbalancedTags(in: html) == [])
    }

    @Test func theGoneAndNotFoundPagesShowNoStory() {
        #expect(NoticePage.goneHTML.contains("<h1>This story is no longer shared</h1>"))
        #expect(NoticePage.notFoundHTML.contains("<h1>Story not found</h1>"))
        for html in [NoticePage.goneHTML, NoticePage.notFoundHTML] {
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
            #expect(html.contains("<meta name=\"robots\" content=\"noindex\">"))
            #expect(!html.contains("og:"))
            #expect(!html.contains("<img"))
            #expect(Self.unbalancedTags(in: html) == [])
        }
    }

    @Test func thePageIsResponsiveAndHasADarkVariant() throws {
        let html = Self.page(try SampleDocuments.story()).html
        #expect(html.components(separatedBy: "<style>").count == 2)
        for rule in ["max-width:40em", "img{max-width:100%;height:auto}", "@media (prefers-color-scheme:dark)", ".table{overflow-x:auto"] {
            #expect(html.contains(rule), "\(rule)")
        }
    }

    /// The sample story in Chromium at a phone's width and a desktop's, compared with the committed golden screenshots
    /// (written instead with `KILN_UPDATE_GOLDEN=1`). Pictures and card are files beside the page.
    @Test(arguments: [390, 1280])
    func theSharedStoryLooksRightInABrowser(width: Int) async throws {
        let window = width < 600 ? (width: width, height: 1560, name: "reader-mobile") : (width: width, height: 900, name: "reader-desktop")
        let directory = try TemporaryDirectory()
        let document = try SampleDocuments.story()
        for image in document.images {
            try Data(image.data).write(to: URL(fileURLWithPath: "\(directory.path)/\(image.name)"))
        }
        let card = ShareCard(
            title: document.title, summary: "A lighthouse, a storm, a calm morning.", cover: document.cover, byline: "by Mira", watermark: false)
        let cardPNG = try await BlockingExecutor.rendering.run { try card.render(.landscape) }
        try Data(cardPNG).write(to: URL(fileURLWithPath: "\(directory.path)/card.png"))
        let page = WebReaderPage(
            document: document, pageURL: "file://\(directory.path)/index.html", cardURL: "file://\(directory.path)/card.png",
            imageURL: { "file://\(directory.path)/\($0.name)" })
        try page.html.write(toFile: "\(directory.path)/index.html", atomically: true, encoding: .utf8)

        let screenshot = "\(directory.path)/screenshot.png"
        _ = try await Command.run([
            "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--window-size=\(window.width),\(window.height)", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
            "--user-data-dir=\(directory.path)/profile", "--virtual-time-budget=3000", "--log-level=3", "--screenshot=\(screenshot)",
            "file://\(directory.path)/index.html",
        ])
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(window.name).png")
            try? FileManager.default.removeItem(at: source)
            try FileManager.default.copyItem(atPath: screenshot, toPath: source.path)
            return
        }
        let shot = try #require(Picture(png: screenshot))
        let golden = try #require(Picture(png: ShareCardTests.goldenDirectory.appendingPathComponent("\(window.name).png").path))
        #expect(shot.width == window.width)
        // Text rendering may move an edge by a pixel; a layout change moves far more.
        #expect(shot.meanDifference(from: golden) < 2)
    }

    /// The value of `name` in the tag that starts with `tagStart`.
    static func attribute(_ name: String, of tagStart: String, in html: String) -> String? {
        guard let tag = html.range(of: tagStart), let start = html.range(of: "\(name)=\"", range: tag.upperBound..<html.endIndex),
            let end = html.range(of: "\"", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// Elements opened and not closed, or closed out of order: empty for well-nested markup.
    static func unbalancedTags(in html: String) -> [String] {
        let voidElements: Set<String> = ["meta", "img", "br", "hr", "!doctype", "stop", "rect", "path", "circle"]
        var open: [String] = []
        var problems: [String] = []
        for tag in html.matches(of: #/<(/?)([!a-zA-Z][a-zA-Z0-9]*)[^>]*>/#) {
            let name = tag.2.lowercased()
            if tag.1.isEmpty {
                if !voidElements.contains(name) { open.append(name) }
            } else if open.last == name {
                open.removeLast()
            } else {
                problems.append("</\(name)>")
            }
        }
        return problems + open
    }
}
