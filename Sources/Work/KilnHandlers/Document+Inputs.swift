import Foundation
import Documents
import TalevoniaInputs
import WorldArchitectInputs

extension Document {
    /// WorldArchitect's campaign summary: a title page, a section per scene ("Scene #X", or "Scene #X: title"), then
    /// the character sheet and the people met as tables, when the game state is given.
    init(campaign: CampaignSummary, identifier: String, images: DocumentImages) {
        var sections = campaign.scenes.enumerated().map { index, scene in
            let number = "Scene #\(scene.number ?? index + 1)"
            var blocks = Self.paragraphs(scene.text).map(DocumentBlock.paragraph)
            if let image = images[scene.image] { blocks.append(.image(image, caption: nil, description: scene.imageDescription)) }
            return DocumentSection(heading: scene.title.map { "\(number): \($0)" } ?? number, blocks: blocks)
        }
        if let state = campaign.state {
            let hero = state.character
            sections.append(
                DocumentSection(
                    heading: "Character sheet",
                    blocks: [
                        .table(
                            DocumentTable(
                                header: ["Name", "Class", "Level", "HP", "Inventory"],
                                rows: [
                                    [
                                        hero.name, hero.characterClass, String(hero.level), "\(hero.hp)/\(hero.maxHP)",
                                        hero.inventory.joined(separator: ", "),
                                    ]
                                ])),
                        .paragraph("Location: \(state.location)"),
                    ]))
            if !state.npcs.isEmpty {
                sections.append(
                    DocumentSection(
                        heading: "People met",
                        blocks: [
                            .table(
                                DocumentTable(
                                    header: ["Name", "Attitude", "HP"],
                                    rows: state.npcs.map { [$0.name, $0.attitude.rawValue, "\($0.hp)/\($0.maxHP)"] }))
                        ]))
            }
        }
        self.init(
            identifier: identifier, title: campaign.title, subtitle: campaign.subtitle ?? "A WorldArchitect campaign", author: campaign.player,
            sections: sections)
    }

    /// Talevonia's reading path: the cover on the title page, then a section per node, headed by its title or
    /// "Part N", with its illustration after its text.
    init(story: StoryPath, identifier: String, images: DocumentImages) {
        let sections = story.nodes.enumerated().map { index, node in
            var blocks = Self.paragraphs(node.text).map(DocumentBlock.paragraph)
            if let image = images[node.image] { blocks.append(.image(image, caption: nil, description: node.imageDescription)) }
            return DocumentSection(heading: node.title ?? "Part \(index + 1)", blocks: blocks)
        }
        self.init(
            identifier: identifier, title: story.title, author: story.author, language: story.language ?? "en", cover: images[story.cover],
            sections: sections)
    }

    /// The paragraphs of a text: separated by blank lines; a single line break inside one becomes a space.
    static func paragraphs(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            .filter { !$0.isEmpty }
    }
}
