import Drawing
import Documents

/// Documents the writers' tests share: text with accents, curly quotes, dashes, emoji and right-to-left words, a cover,
/// an inline picture and a table, as WorldArchitect's campaign summaries and Talevonia's stories have them.
enum SampleDocuments {
    /// Words every format must carry through unchanged (emoji are checked where the format keeps them as text).
    static let accented = "Café façade, naïve Zoë — “quoted” and ‘single’"
    static let rightToLeft = "שלום עולם"
    static let arabic = "مرحبا بالعالم"
    static let emoji = "🐉⚔️"

    static func picture(_ name: String, width: Int = 320, height: Int = 200, color: RGBColor) throws -> DocumentImage {
        let surface = CairoSurface(width: width, height: height, opaque: true)
        surface.draw { canvas in
            canvas.fill(PixelRect(x: 0, y: 0, width: width, height: height), color)
            canvas.fillCircle(centerX: Double(width) / 2, centerY: Double(height) / 2, radius: Double(min(width, height)) / 3, RGBColor(0xFFFFFF))
        }
        return try DocumentImage(baseName: name, data: try PNGEncoder.encode(surface))
    }

    /// A character sheet as WorldArchitect's campaigns end: short cells and one long inventory.
    static let characterSheet = DocumentTable(
        header: ["Name", "Class", "Level", "HP", "Inventory"],
        rows: [
            [
                "Nightbloom", "Ranger", "4", "27/31",
                "Longbow, forty arrows, a hunting knife, a cloak of moss, rations for a week, a lantern, flint and steel, fifty feet "
                    + "of rope and a map of the Whispering Woods",
            ]
        ])

    /// A short campaign: three scenes (the second with a picture) and a character sheet.
    static func campaign() throws -> Document {
        let map = try picture("image-1", color: RGBColor(0x2E6B3F))
        let scenes: [DocumentSection] = [
            DocumentSection(
                heading: "Scene #1",
                blocks: [
                    .paragraph("The party meets at the Gilded Griffin. \(accented)."),
                    .paragraph("A stranger whispers: “\(rightToLeft)” and leaves a map. \(emoji)"),
                ]),
            DocumentSection(
                heading: "Scene #2",
                blocks: [
                    .paragraph("They follow the map into the Whispering Woods, where the trees speak \(arabic)."),
                    .image(map, caption: "The map to the ruins"),
                ]),
            DocumentSection(heading: "Scene #3", blocks: [.paragraph("At the ruins, a dragon wakes — and it is hungry.")]),
            DocumentSection(
                heading: "Character sheet",
                blocks: [
                    .table(
                        DocumentTable(
                            header: ["Name", "Class", "Level", "HP", "Inventory"], rows: [["Aria Zoë", "Rogue", "3", "18/24", "Dagger, rope, map"]]))
                ]),
        ]
        return Document(
            identifier: "0f3c5a2e-1d4b-4c6e-9a7b-5e2d1c0b9a87", title: "The Dragon of Émberfall", subtitle: "A WorldArchitect campaign",
            author: "Aria’s player", sections: scenes
        )
    }

    /// A Talevonia reading path: a cover and three nodes, one with an illustration.
    static func story() throws -> Document {
        let cover = try picture("cover", width: 400, height: 600, color: RGBColor(0x6A3FB5))
        let illustration = try picture("image-2", color: RGBColor(0xC0562F))
        return Document(
            identifier: "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f", title: "The Lantern Keeper’s Daughter", author: "Mira",
            cover: cover,
            sections: [
                DocumentSection(
                    heading: "The lighthouse",
                    blocks: [.paragraph("Élodie climbed the stairs — 212 of them — and said “hello” to the lamp. \(emoji)")]),
                DocumentSection(
                    heading: "The storm",
                    blocks: [
                        .paragraph("A ship’s bell rang in the dark; its sailors sang \(rightToLeft)."),
                        .image(illustration, caption: nil),
                    ]),
                DocumentSection(heading: "Morning", blocks: [.paragraph("By dawn the sea was calm, and the gulls said \(arabic).")]),
            ]
        )
    }

    /// Every paragraph's text, in order: what text extraction must find.
    static func paragraphs(of document: Document) -> [String] {
        document.sections.flatMap { section in
            section.blocks.compactMap { block in
                if case .paragraph(let text) = block { return text }
                return nil
            }
        }
    }
}
