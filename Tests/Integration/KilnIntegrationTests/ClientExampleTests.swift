import Foundation
import KilnClient
import KilnClientExamples
import Testing

/// The client documentation's examples (KilnClientExamples), each app's flow end to end against a Kiln on the provider
/// simulator, checked as the app's user would see it.
@Suite struct ClientExampleTests {
    @Test func talevoniasThreeContinuationsStreamAsTheyAreWritten() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let kiln = try harness.kiln(try await harness.tenant("talevonia"))
            let path = TextContinueInput(
                title: "The Lighthouse at Gull Point", pathSummaries: ["Mira takes the keeper's job.", "The lamp goes dark on the first night."],
                lastNodeText: "Mira climbed the spiral stairs with a candle in her fist. Above her, something was breathing.")
            var shown: [[Int: String]] = []
            let continuations = try await continueStory(kiln: kiln, path: path) { shown.append($0) }
            #expect(continuations.count == 3)
            #expect(shown.count > 3, "the cards filled in as the model wrote")
            for (choice, continuation) in continuations.enumerated() {
                #expect((80...200).contains(continuation.wordCount))
                #expect(shown.last?[choice] == continuation.text, "what card \(choice) showed last is its continuation")
            }
        }
    }

    @Test func chatTalesVideoRendersWithProgressAndDownloads() async throws {
        try await Harness.with { harness in
            let kiln = try harness.kiln(try await ChatExportJobTests.start(harness))
            let conversation = ChatConversation(
                characters: [ChatCharacter(id: "me", name: "Me", color: "#0A84FF"), ChatCharacter(id: "sam", name: "Sam", color: "#34C759")],
                messages: [ChatMessageLine(character: "sam", text: "Movie tonight? 🍿"), ChatMessageLine(character: "me", text: "Only a comedy")])
            var settings = ChatExportSettings()
            settings.format = .square
            settings.fps = 30
            settings.typingSpeed = .fast
            settings.sounds = false
            var rendering: [Double] = []
            var downloading: [Double] = []
            let file = try await exportChat(
                kiln: kiln, conversation: conversation, settings: settings, rendering: { rendering.append($0) },
                downloading: { downloading.append($0) })
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(!rendering.isEmpty, "the render reported its progress")
            #expect(rendering == rendering.sorted() && rendering.allSatisfy { (0...1).contains($0) }, "rendering: \(rendering)")
            #expect(downloading.last == 1)
            let video = try Data(contentsOf: file)
            #expect(video.count > 1000)
            #expect(String(decoding: video.dropFirst(4).prefix(4), as: UTF8.self) == "ftyp", "an MP4")
        }
    }

    @Test func worldArchitectsTurnStreamsTheSceneAndReturnsAConsistentState() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let kiln = try harness.kiln(try await harness.tenant("worldarchitect"))
            let state = CampaignState(
                character: .init(name: "Kael", characterClass: "rogue", level: 3, hp: 18, maxHP: 24, inventory: ["dagger", "rope"]),
                npcs: [.init(name: "Sera Vane", hp: 12, maxHP: 12, attitude: .hostile)], location: "The Drowned Chapel",
                locations: ["The Drowned Chapel"], combat: .init(active: false, combatants: []))
            var shown: [String] = []
            let turn = try await playTurn(
                kiln: kiln, state: state, scene: 4, recent: [.init(number: 4, narrative: "The chapel doors groan open.")],
                action: "I search the altar.", show: { shown.append($0) })
            #expect(turn.sceneNumber == 5)
            #expect(shown.last == turn.narrative, "the scene the player watched being written is the turn's")
            #expect(turn.state.inconsistency(field: "state") == nil)
            #expect(!turn.planningBlock.choices.isEmpty)
        }
    }

    /// Veramo's tenant with the image kinds and partners.
    static let veramoPolicy = """
        {"veramo": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "UTC", "safety": "standard",
          "partners": {"unlink_cooldown_seconds": 86400},
          "tiers": {"free": {"lowest": true, "daily": {"image": 10}, "running_jobs": 5, "refund_cap": 3, "max_devices_per_day": 4}},
          "kinds": {"image.generate": {"class": "image", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 100, "period_seconds": 60, "burst": 50},
                    "ip_velocity": {"count": 600, "period_seconds": 60, "burst": 300},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}}}
        """

    @Test func veramosPhotoEditAndPartnerInvite() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.veramoPolicy)
            let client = try await harness.tenant("veramo")
            try await ImageJobTests.start(harness)
            try await harness.startAPI()
            let alice = try harness.kiln(client, identity: "alice")
            let file = try await editPhoto(kiln: alice, jpeg: Data("a photo of us two".utf8), prompt: "Us two as astronauts")
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(Array(try Data(contentsOf: file).prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")

            let link = try await pairPartners(inviter: alice, invitee: try harness.kiln(client, identity: "bob"))
            #expect(link.partner == "bob")
            #expect(try await harness.kiln(client, identity: "bob").partner().partner == "alice")
            #expect(try await alice.unlinkPartner() == "bob")
            let unlinked = try await #require(throws: KilnError.self) { try await alice.partner() }
            #expect(unlinked.status == 404)
        }
    }

    @Test func joaniesStoryPlacesEveryDrawing() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let kiln = try harness.kiln(try await harness.tenant("joanie"))
            let drawings = (0..<6).map { index in Data((0..<512).map { UInt8(($0 + index) % 251) }) }
            let story = try await bedtimeStory(kiln: kiln, drawings: drawings, child: DrawingStoryChild(name: "Lily", age: 5, theme: "the sea"))
            #expect(!story.title.isEmpty)
            #expect(story.storyText == story.paragraphs.joined(separator: "\n\n"))
            #expect(Set(story.imagePlacements.map(\.uploadID)).count == 6, "every drawing placed once")
            #expect(story.imagePlacements.allSatisfy { (1...story.paragraphs.count).contains($0.afterParagraph) })
        }
    }
}
