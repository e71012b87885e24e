import Documents
import Drawing
import Testing

@Suite struct PlainTextWriterTests {
    @Test func aSmallDocumentIsLaidOutExactly() throws {
        let picture = try SampleDocuments.picture("image-1", width: 8, height: 8, color: RGBColor(0x336699))
        let document = Document(
            identifier: "tiny", title: "Café Zoë 🐉", subtitle: "A test", author: "Mira",
            sections: [
                DocumentSection(
                    heading: "One",
                    blocks: [
                        .paragraph("First “para” — ok."),
                        .paragraph("Second \(SampleDocuments.rightToLeft)."),
                        .image(picture, caption: "A map"),
                        .image(picture, caption: nil),
                    ]),
                DocumentSection(heading: nil, blocks: [.paragraph("Runs on.")]),
                DocumentSection(
                    heading: "Sheet",
                    blocks: [
                        .table(
                            DocumentTable(
                                header: ["Name", "Class", "HP"], rows: [["Aria Zoë", "Rogue", "18/24"], ["Bo", "Wizard of the Tower", "7"]]))
                    ]),
            ]
        )
        let expected = """
            Café Zoë 🐉
            ==========

            A test
            Mira

            One
            ---

            First “para” — ok.

            Second שלום עולם.

            [Picture: A map]

            [Picture]

            Runs on.

            Sheet
            -----

            Name     | Class               | HP
            ---------+---------------------+------
            Aria Zoë | Rogue               | 18/24
            Bo       | Wizard of the Tower | 7

            """
        let bytes = PlainTextWriter().write(document)
        #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func theSampleDocumentsKeepEveryParagraphVerbatim() throws {
        for document in [try SampleDocuments.campaign(), try SampleDocuments.story()] {
            let text = String(decoding: PlainTextWriter().write(document), as: UTF8.self)
            let lines = Set(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            for paragraph in SampleDocuments.paragraphs(of: document) {
                #expect(lines.contains(paragraph))
            }
            #expect(lines.contains(document.title))
            #expect(lines.contains(String(repeating: "=", count: document.title.count)))
            #expect(!text.contains("\r"))
        }
        let sheet = String(decoding: PlainTextWriter().write(try SampleDocuments.campaign()), as: UTF8.self)
        #expect(sheet.contains("Name     | Class | Level | HP    | Inventory\n"))
        #expect(sheet.contains("Aria Zoë | Rogue | 3     | 18/24 | Dagger, rope, map\n"))
        #expect(sheet.contains("[Picture: The map to the ruins]"))
    }
}
