import CPangoCairo
import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

/// How the PDF sets a paragraph's words: no lone word on its last line, and right-to-left words that come back out of
/// `pdftotext` as they were written.
@Suite struct PDFTypesettingTests {
    /// At the PDF's body size and column width, this paragraph's last line holds "go." alone unless it is kept company.
    static let endingOnOneWord =
        "Élodie held the lantern over the black water and watched the ship turn away from the rocks at the last moment. "
        + "The keeper had told her once that every light must, one night, be given up, and standing there with the cold "
        + "wind in her hair she understood at last what he had meant: she had to let it go into the dark. And so, at long "
        + "last, she let the old light go."

    /// The text of each line of `layout`.
    static func lines(of layout: TextLayout, text: String) -> [String] {
        let bytes = Array(text.utf8)
        var lines: [String] = []
        for index in 0..<pango_layout_get_line_count(layout.pointer) {
            guard let line = pango_layout_get_line_readonly(layout.pointer, index) else { continue }
            let start = Int(line.pointee.start_index)
            lines.append(String(decoding: bytes[start..<(start + Int(line.pointee.length))], as: UTF8.self))
        }
        return lines
    }

    @Test func aParagraphsLastLineTakesTheWordBeforeItsLastOne() throws {
        let typesetter = Typesetter(roundsGlyphPositions: false)
        let text = Self.endingOnOneWord
        let plain = Self.lines(of: typesetter.layout(text, size: 11, width: 467), text: text)
        try #require(plain.last?.split(separator: " ") == ["go."], "the paragraph no longer ends on one word without help: \(plain)")
        let kept = Self.lines(of: typesetter.layout(text, size: 11, width: 467, avoidingLoneLastWord: true), text: text)
        #expect(kept.count == plain.count)
        #expect(kept.last?.split(separator: " ") == ["light", "go."], "\(kept)")
        #expect(kept.joined() == text, "the text is unchanged: only where a line breaks moves")
        #expect(kept.dropLast().allSatisfy { $0.split(separator: " ").count >= 2 })
    }

    /// Two words too long to share a line stay as they were: the last one alone, rather than running past the column.
    @Test func twoWordsWiderThanTheLineAreLeftAlone() {
        let text = "short " + String(repeating: "a", count: 40) + " " + String(repeating: "b", count: 40)
        let lines = Self.lines(of: Typesetter().layout(text, size: 11, width: 300, avoidingLoneLastWord: true), text: text)
        #expect(lines.last == String(repeating: "b", count: 40))
    }

    /// What a reader sees in the PDF: `pdftotext -layout` keeps each drawn line, and the paragraph's last one holds two
    /// words.
    @Test func thePDFsParagraphEndsOnTwoWords() async throws {
        let document = Document(
            identifier: "go", title: "Gull Point", sections: [DocumentSection(heading: "The lamp", blocks: [.paragraph(Self.endingOnOneWord)])])
        let directory = try TemporaryDirectory()
        let pdf = try await PDFWriterTests.write(document, in: directory)
        let text = try await PDFWriterTests.output(["pdftotext", "-layout", "-f", "2", "-l", "2", pdf, "-"])
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let last = try #require(lines.last { !$0.hasPrefix("Gull Point") })
        #expect(last == "light go.", "\(lines)")
    }

    /// Hebrew words, and Arabic words without a lam-alef ligature or a vowel mark, come out of `pdftotext` whole and
    /// in their letters' order, alone and in an English sentence. Pango rounded each glyph's position to a whole point,
    /// which left gaps between right-to-left letters that poppler took for spaces ("ש צל צלו").
    @Test func rightToLeftWordsExtractAsWritten() async throws {
        let hebrew = "הפעמונים שצלצלו בלילה מעל המגדלור"
        let arabic = "كانت الريح تعصف في الليل والبحر هائج"
        let document = Document(
            identifier: "rtl", title: "Bells",
            sections: [
                DocumentSection(
                    heading: "Night",
                    blocks: [.paragraph(hebrew), .paragraph(arabic), .paragraph("The sailors sang \(hebrew) and \(arabic) until dawn.")])
            ])
        let directory = try TemporaryDirectory()
        let pdf = try await PDFWriterTests.write(document, in: directory)
        let text = PDFWriterTests.normalized(try await PDFWriterTests.output(["pdftotext", "-enc", "UTF-8", pdf, "-"]))
        let words = Set(text.split(separator: " ").map(String.init))
        for word in (hebrew + " " + arabic).split(separator: " ").map(String.init) {
            #expect(words.contains(word), "\(word) in \(text)")
        }
        #expect(text.contains(hebrew))
        #expect(text.contains(arabic))
    }

    /// Two Arabic cases poppler 22.12 (Debian 12's) still splits, though Cairo writes them correctly: the lam-alef
    /// ligature, one glyph that Cairo gives the `/ActualText` "لأ" and poppler spreads left to right over the glyph, so a
    /// right-to-left reading reverses it ("األجراس"); and a vowel mark (shadda) positioned over its letter, which poppler
    /// takes for a word of its own ("رن ّت"). This test wants to know when that changes.
    @Test func popplerStillSplitsALamAlefLigatureAndAMarkedLetter() async throws {
        let document = Document(
            identifier: "marks", title: "Bells", sections: [DocumentSection(heading: nil, blocks: [.paragraph("الأجراس رنّت")])])
        let directory = try TemporaryDirectory()
        let pdf = try await PDFWriterTests.write(document, in: directory)
        let text = PDFWriterTests.normalized(try await PDFWriterTests.output(["pdftotext", "-enc", "UTF-8", pdf, "-"]))
        withKnownIssue("poppler's reading of ActualText and of marks in right-to-left text") {
            #expect(text.contains("الأجراس"))
            #expect(text.contains("رنّت"))
        }
    }
}
