import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

/// Word files read back with python-docx (what a script or Word's object model sees: styles, text, pictures, tables)
/// and converted by LibreOffice (what a reader sees).
@Suite struct DOCXWriterTests {
    /// What python-docx reads from a file.
    struct Contents: Decodable {
        struct Paragraph: Decodable, Equatable {
            let style: String
            let text: String
        }
        struct Table: Decodable {
            let style: String
            let cells: [[String]]
            let headerRepeats: Bool
            /// Each column's width in EMU, from the table's grid.
            let columnWidths: [Int]
        }
        let paragraphs: [Paragraph]
        /// Each inline picture's width and height in EMU.
        let pictures: [[Int]]
        let textWidth: Int
        let tables: [Table]
        let title: String
        let author: String
        let language: String

        func texts(inStyle style: String) -> [String] {
            paragraphs.filter { $0.style == style }.map(\.text)
        }
    }

    static let readBack = """
        import docx, json, sys
        from docx.oxml.ns import qn
        d = docx.Document(sys.argv[1])
        section = d.sections[0]
        print(json.dumps({
            "paragraphs": [{"style": p.style.name, "text": p.text} for p in d.paragraphs],
            "pictures": [[s.width, s.height] for s in d.inline_shapes],
            "textWidth": section.page_width - section.left_margin - section.right_margin,
            "tables": [{
                "style": t.style.name,
                "cells": [[c.text for c in r.cells] for r in t.rows],
                "headerRepeats": t.rows[0]._tr.find(qn("w:trPr") + "/" + qn("w:tblHeader")) is not None,
                "columnWidths": [c.width for c in t.columns],
            } for t in d.tables],
            "title": d.core_properties.title,
            "author": d.core_properties.author,
            "language": d.core_properties.language,
        }))
        """

    static func write(_ document: Document, to directory: TemporaryDirectory) async throws -> String {
        let started = ContinuousClock.now
        let bytes = try await BlockingExecutor.rendering.run { try DOCXWriter().write(document) }
        print("DOCXWriter wrote \(document.title) (\(bytes.count) bytes) in \(ContinuousClock.now - started)")
        let path = directory.path + "/document.docx"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func document(_ name: String) throws -> Document {
        name == "story" ? try SampleDocuments.story() : try SampleDocuments.campaign()
    }

    /// The character sheet's columns are as wide as their content: the short ones narrow, the inventory the widest, and
    /// together the text width (not five equal columns).
    @Test func tableColumnsAreSizedToTheirContent() async throws {
        let document = Document(
            identifier: "sheet", title: "Sheet", sections: [DocumentSection(heading: nil, blocks: [.table(SampleDocuments.characterSheet)])])
        let directory = try TemporaryDirectory()
        let path = try await Self.write(document, to: directory)
        let output = try await Command.run(["/usr/bin/python3", "-c", Self.readBack, path])
        let contents = try JSONDecoder().decode(Contents.self, from: output)
        let widths = try #require(contents.tables.first?.columnWidths)
        try #require(widths.count == 5)
        let (name, characterClass, level, hp, inventory) = (widths[0], widths[1], widths[2], widths[3], widths[4])
        #expect(inventory > 2 * name, "\(widths)")
        #expect(level < name && hp < name && characterClass < name, "\(widths)")
        #expect(abs(widths.reduce(0, +) - contents.textWidth) <= 5 * 635, "\(widths) fill \(contents.textWidth)")
    }

    @Test(arguments: ["campaign", "story"])
    func pythonDocxReadsTheStylesTextPicturesAndTables(sample: String) async throws {
        let document = try Self.document(sample)
        let directory = try TemporaryDirectory()
        let path = try await Self.write(document, to: directory)
        let output = try await Command.run(["/usr/bin/python3", "-c", Self.readBack, path])
        let contents = try JSONDecoder().decode(Contents.self, from: output)

        #expect(contents.texts(inStyle: "Title") == [document.title])
        #expect(contents.texts(inStyle: "Subtitle") == [document.subtitle].compactMap { $0 })
        #expect(contents.texts(inStyle: "Author") == [document.author].compactMap { $0 })
        #expect(contents.texts(inStyle: "Heading 1") == document.sections.compactMap(\.heading))
        // Accents, curly quotes, dashes, emoji, Hebrew and Arabic all read back exactly, even split into directional runs.
        // The title page's page break reads back as a Normal paragraph of "\n".
        #expect(contents.texts(inStyle: "Normal").filter { !$0.allSatisfy(\.isNewline) } == SampleDocuments.paragraphs(of: document))
        let captions = document.sections.flatMap(\.blocks).compactMap { block -> String? in
            if case .image(_, let caption?, _) = block { return caption }
            return nil
        }
        #expect(contents.texts(inStyle: "Caption") == captions)
        #expect(contents.paragraphs.first == Contents.Paragraph(style: "Title", text: document.title))

        let imageBlocks = document.sections.flatMap(\.blocks).filter {
            if case .image = $0 { return true }
            return false
        }
        #expect(contents.pictures.count == imageBlocks.count + (document.cover == nil ? 0 : 1))
        for picture in contents.pictures {
            #expect(picture[0] > 0 && picture[0] <= contents.textWidth)
        }

        let tables = document.sections.flatMap(\.blocks).compactMap { block -> DocumentTable? in
            if case .table(let table) = block { return table }
            return nil
        }
        #expect(contents.tables.map(\.cells) == tables.map { [$0.header] + $0.rows })
        #expect(contents.tables.allSatisfy { $0.style == "Table Grid" && $0.headerRepeats })

        #expect(contents.title == document.title)
        #expect(contents.author == document.author ?? "")
        #expect(contents.language == document.language)
    }

    /// The cover keeps its 2:3 shape and the 320×200 illustration its 8:5, at 96 dpi (9,525 EMU a pixel).
    @Test func picturesKeepTheirAspectRatio() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.write(try SampleDocuments.story(), to: directory)
        let output = try await Command.run(["/usr/bin/python3", "-c", Self.readBack, path])
        let pictures = try JSONDecoder().decode(Contents.self, from: output).pictures
        #expect(pictures == [[400 * 9_525, 600 * 9_525], [320 * 9_525, 200 * 9_525]])
    }

    @Test func aPictureWiderThanTheColumnIsScaledDownToIt() async throws {
        let wide = try SampleDocuments.picture("image-1", width: 2_000, height: 500, color: .init(0x336699))
        let document = Document(identifier: "wide", title: "Wide", sections: [DocumentSection(heading: nil, blocks: [.image(wide, caption: nil)])])
        let directory = try TemporaryDirectory()
        let path = try await Self.write(document, to: directory)
        let contents = try JSONDecoder().decode(Contents.self, from: try await Command.run(["/usr/bin/python3", "-c", Self.readBack, path]))
        let picture = try #require(contents.pictures.first)
        #expect(abs(picture[0] - contents.textWidth) <= 1)
        #expect(abs(picture[1] * 4 - picture[0]) <= 4)
    }

    /// A private profile directory lets this run beside another LibreOffice (or another run of the suite).
    @Test func libreOfficeConvertsItToAPDFWithTheScenesText() async throws {
        let document = try SampleDocuments.campaign()
        let directory = try TemporaryDirectory()
        let path = try await Self.write(document, to: directory)
        let started = ContinuousClock.now
        _ = try await Command.run([
            "soffice", "--headless", "-env:UserInstallation=file://\(directory.path)/profile",
            "--convert-to", "pdf", "--outdir", directory.path, path,
        ])
        print("LibreOffice converted the DOCX in \(ContinuousClock.now - started)")
        let pdf = directory.path + "/document.pdf"
        #expect(FileManager.default.fileExists(atPath: pdf))
        let text = String(decoding: try await Command.run(["pdftotext", pdf, "-"]), as: UTF8.self)
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(document.title))
        #expect(words.contains("Scene #3 At the ruins, a dragon wakes — and it is hungry."))
        #expect(words.contains("The party meets at the Gilded Griffin. \(SampleDocuments.accented)."))
        #expect(words.contains("Aria Zoë"))
        // Numbered at the foot of every page but the title page.
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map { $0.split(whereSeparator: \.isNewline).map(String.init) }
        try #require(pages.count > 2, "\(pages.count) pages")
        #expect(!pages[0].contains("1"), "the title page has no number")
        for (index, lines) in pages.enumerated().dropFirst() where !lines.isEmpty {
            #expect(lines.last?.trimmingCharacters(in: .whitespaces) == String(index + 1), "page \(index + 1) ends with \(lines.last ?? "")")
        }
    }
}
