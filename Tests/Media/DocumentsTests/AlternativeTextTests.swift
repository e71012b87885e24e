import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import WebReader
import Testing

/// A picture's description is what a reader who cannot see it is told, in every format: the PDF's Figure element
/// (`/Alt`), DOCX's `descr`, EPUB's and the web page's `alt`; a picture without one is "Illustration for" its section.
@Suite struct AlternativeTextTests {
    static let description = "A lighthouse on a cliff at dusk, its lamp lit — “שלום” & <friends>"

    /// A story with a cover, a described illustration and one without a description, on pages 2 and 4 of the PDF (after a
    /// paragraph that runs from page 3).
    static func story() throws -> Document {
        let cover = try SampleDocuments.picture("cover", width: 400, height: 600, color: RGBColor(0x6A3FB5))
        let described = try SampleDocuments.picture("image-1", color: RGBColor(0x2E6B3F))
        let plain = try SampleDocuments.picture("image-2", color: RGBColor(0xC0562F))
        let long = String(repeating: "The stairs went on and on, and the lamp above them hummed. ", count: 60)
        return Document(
            identifier: "alt", title: "Gull Point", author: "Mira", language: "pt-BR", cover: cover,
            sections: [
                DocumentSection(
                    heading: "The keeper", blocks: [.paragraph("Mira took the job."), .image(described, caption: nil, description: description)]),
                DocumentSection(heading: "The stairs", blocks: [.paragraph(long), .image(plain, caption: nil)]),
            ])
    }

    static let expected = ["Gull Point", description, "Illustration for The stairs"]

    /// The PDF is tagged (poppler and qpdf read it without complaint): under one Document element, H1 the title, H2 each
    /// heading, P the paragraphs, and one Figure per picture on its page, with its alternative text; the catalog names
    /// the document's language.
    @Test func thePDFsFiguresCarryTheirAlternativeText() async throws {
        let directory = try TemporaryDirectory()
        let pdf = try await PDFWriterTests.write(try Self.story(), in: directory)
        let info = try await PDFWriterTests.output(["pdfinfo", pdf])
        #expect(info.contains("Tagged:          yes"))
        _ = try await Command.run(["qpdf", "--check", pdf])  // Fails the test on any error in the update's cross-reference.
        let structure = try await PDFStructure(pdf: pdf)
        #expect(structure.language == "pt-BR")
        let figures = structure.elements.filter { $0.type == "Figure" }
        #expect(figures.map(\.alternativeText) == Self.expected)
        let pictures = try await PDFWriterTests.images(in: pdf).filter { $0.type == "image" }
        #expect(figures.map(\.page) == pictures.map(\.page), "each Figure on its picture's page: \(figures)")
        #expect(figures.map(\.page) == [1, 2, 4])
        #expect(structure.elements.prefix(2).map(\.type) == ["Document", "H1"])
        #expect(structure.elements.filter { $0.type == "H2" }.count == 2)
        #expect(structure.elements.contains { $0.type == "P" })
        let tree = try await PDFWriterTests.output(["sh", "-c", #"pdfinfo -struct-text "$0" 2>&1"#, pdf])
        #expect(!tree.contains("Warning") && !tree.contains("Error"), "\(tree)")
        #expect(tree.contains("  H2 (block)\n    \"The keeper\""), "\(tree)")
        #expect(!tree.contains("page 2"), "the footer belongs to no element")
    }

    /// A table is a Table of rows (TR) of header (TH) and data (TD) cells.
    @Test func thePDFsTablesAreTaggedByRowAndCell() async throws {
        let directory = try TemporaryDirectory()
        let pdf = try await PDFWriterTests.write(try SampleDocuments.campaign(), in: directory)
        let structure = try await PDFStructure(pdf: pdf)
        let types = structure.elements.map(\.type)
        #expect(types.contains("Table"))
        #expect(types.filter { $0 == "TH" }.count == 5)
        #expect(types.filter { $0 == "TD" }.count == 5)
        #expect(structure.elements.filter { $0.type == "Figure" }.map(\.alternativeText) == ["The map to the ruins"])
    }

    @Test func theDOCXDescribesEachPicture() async throws {
        let directory = try TemporaryDirectory()
        let path = try await DOCXWriterTests.write(try Self.story(), to: directory)
        let xml = String(decoding: try await Command.run(["unzip", "-p", path, "word/document.xml"]), as: UTF8.self)
        let descriptions = xml.matches(of: /<wp:docPr [^>]*descr="([^"]*)"/).map { String($0.output.1) }
        #expect(descriptions == Self.expected.map(\.xmlEscaped))
    }

    @Test func theEPUBsPicturesCarryTheirAlternativeText() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/story.epub"
        try await EPUBWriterTests.write(try Self.story(), to: path)
        let first = try await EPUBWriterTests.entry("OEBPS/section-1.xhtml", of: path)
        #expect(first.contains(#"<img src="images/image-1.png" alt="\#(Self.description.xmlEscaped)"/>"#), "\(first)")
        let second = try await EPUBWriterTests.entry("OEBPS/section-2.xhtml", of: path)
        #expect(second.contains(#"<img src="images/image-2.png" alt="Illustration for The stairs"/>"#))
    }

    @Test func theWebPagesPicturesCarryTheirAlternativeText() throws {
        let html = WebReaderPageTests.page(try Self.story()).html
        #expect(WebReaderPageTests.alternativeTexts(in: html) == Self.expected.map(\.xmlEscaped))
    }
}

/// The structure tree of a tagged PDF, read by qpdf: its elements in reading order and the catalog's language.
struct PDFStructure {
    struct Element: CustomStringConvertible {
        let type: String
        let alternativeText: String?
        /// From 1; nil for an element whose content is all in its children.
        let page: Int?

        var description: String { "\(type) p\(page.map(String.init) ?? "-") \(alternativeText ?? "")" }
    }

    let elements: [Element]
    let language: String?

    init(pdf: String) async throws {
        let json = try await Command.run(["qpdf", "--json=2", "--json-key=qpdf", pdf])
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let parts = try #require(root["qpdf"] as? [Any])
        let objects = try #require(parts.last as? [String: Any])
        func object(_ reference: Any?) -> [String: Any]? {
            guard let reference = reference as? String else { return nil }
            return (objects["obj:\(reference)"] as? [String: Any])?["value"] as? [String: Any]
        }
        func text(_ value: Any?) -> String? {
            // qpdf writes a text string as "u:" and its characters.
            (value as? String).map { $0.hasPrefix("u:") ? String($0.dropFirst(2)) : $0 }
        }
        let trailer = try #require((objects["trailer"] as? [String: Any])?["value"] as? [String: Any])
        let catalog = try #require(object(trailer["/Root"]))
        language = text(catalog["/Lang"])
        let pages = (object(catalog["/Pages"])?["/Kids"] as? [String]) ?? []
        var elements: [Element] = []
        func walk(_ reference: Any?) {
            guard let element = object(reference) else { return }
            if let type = element["/S"] as? String {
                let page = (element["/Pg"] as? String).flatMap { pages.firstIndex(of: $0) }.map { $0 + 1 }
                elements.append(Element(type: String(type.dropFirst()), alternativeText: text(element["/Alt"]), page: page))
            }
            let kids = element["/K"]
            for kid in (kids as? [Any]) ?? [kids as Any] { walk(kid) }
        }
        // The root's /K, like any element's, is one kid or an array of them.
        let kids = try #require(object(catalog["/StructTreeRoot"]))["/K"]
        for kid in (kids as? [Any]) ?? [kids as Any] { walk(kid) }
        self.elements = elements
    }
}
