import ChatTaleInputs
import CurlClient
import Foundation
import KilnCore
import KilnHandlers
import KilnJSON
import KilnProviders
import KilnStore
import ProviderSimulator
import Testing
import WorldArchitectInputs

/// The apps' text kinds end to end: submitted over HTTP, run by a worker against the provider simulator, read back
/// as an app would — the result's shape, the streamed text, the repair of a malformed answer, bad inputs refused.
@Suite struct StructuredTextJobTests {
    /// A finished job and what its event stream carried.
    struct Outcome {
        let job: JSONValue
        /// The streamed text that stands (after the last retraction), by choice.
        let deltas: [Int: String]
        let events: [String]

        /// The result of a succeeded job.
        var result: JSONValue? { job["status"]?.stringValue == "succeeded" ? job["result"] : nil }
    }

    /// Submits `input` as `kind`, waits for the job to end, and reads its events.
    static func run(_ kind: String, _ input: JSONValue, harness: Harness, client: Harness.Client) async throws -> Outcome {
        let id = try await harness.submit(JSONValue.object(["kind": .string(kind), "input": input]).canonicalJSON(), as: client)
        let job = try await harness.awaitFinished(id, as: client)
        let response = try await harness.http.execute(try harness.request("GET", "/v1/jobs/\(id)/events", as: client), timeout: .seconds(10))
        var parser = ServerSentEventParser()
        var deltas: [Int: String] = [:]
        var events: [String] = []
        for event in parser.parse(response.body) {
            events.append(event.event ?? "message")
            // A retraction withdraws what streamed before it, as an app drops the text it showed.
            if event.event == "retract" { deltas = [:] }
            guard event.event == "delta", let data = JSONValue.parse(event.data), let text = data["text"]?.stringValue else { continue }
            deltas[data["choice"]?.intValue ?? 0, default: ""] += text
        }
        return Outcome(job: job, deltas: deltas, events: events)
    }

    static func words(_ text: String?) -> Int {
        (text ?? "").split(whereSeparator: \.isWhitespace).count
    }

    /// JSON text as a value; test inputs read best as the JSON an app sends.
    static func json(_ text: String) throws -> JSONValue {
        try #require(JSONValue.parse(text), "not JSON: \(text)")
    }

    static let continueInput = #"""
        {"title": "The Lighthouse at Gull Point",
         "path_summaries": ["Mira takes the keeper's job.", "The lamp goes dark on the first night."],
         "last_node_text": "Mira climbed the spiral stairs with a candle in her fist. Above her, something that was not the wind was breathing."}
        """#

    @Test func textContinueGivesThreeStreamedContinuationsOfEightyToTwoHundredWords() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let outcome = try await Self.run("text.continue", try Self.json(Self.continueInput), harness: harness, client: client)
            #expect(outcome.job["status"]?.stringValue == "succeeded", "\(outcome.job)")
            let continuations = try #require(outcome.result?["continuations"]?.arrayValue)
            #expect(continuations.count == 3)
            for (index, continuation) in continuations.enumerated() {
                let text = try #require(continuation["text"]?.stringValue)
                #expect((80...200).contains(Self.words(text)), "continuation \(index) has \(Self.words(text)) words")
                #expect(continuation["word_count"]?.intValue == Self.words(text))
                #expect(continuation["summary"]?.stringValue?.isEmpty == false)
                #expect(continuation["tags"]?.arrayValue?.isEmpty == false)
                // Each candidate's text reached the app as it was written, on its own choice.
                #expect(outcome.deltas[index] == text)
            }
            #expect(Set(continuations.compactMap { $0["summary"]?.stringValue }).count == 3, "three different directions")
            #expect(outcome.result?["prompt_version"]?.stringValue == "text.continue.v1")
            #expect(outcome.result?["repaired"] == .bool(false))
            let id = try #require(outcome.job["id"]?.stringValue.flatMap(JobID.init(validating:)))
            let usage = try await ProviderUsageStore(pool: harness.database).usage(of: id)
            #expect(usage.count == 1)
            #expect(usage.first?.outputTokens == outcome.result?["usage"]?["output_tokens"]?.intValue)
        }
    }

    @Test func textOpeningGivesAParagraphWithSummaryAndTags() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let outcome = try await Self.run(
                "text.opening", try Self.json(#"{"title": "The Clockmaker's Daughter", "prompt": "A girl who can hear time."}"#), harness: harness,
                client: client)
            let result = try #require(outcome.result, "\(outcome.job)")
            let text = try #require(result["text"]?.stringValue)
            #expect((60...150).contains(Self.words(text)))
            #expect(outcome.deltas[0] == text)
            #expect(result["summary"]?.stringValue?.isEmpty == false)
            #expect(result["tags"]?.arrayValue?.isEmpty == false)
            #expect(result["prompt_version"]?.stringValue == "text.opening.v1")
        }
    }

    @Test(arguments: ["short", "medium", "long"])
    func chatGenerateGivesAConversationVideoChatExportTakesAsItIs(length: String) async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("chattale")
            let input = try Self.json(
                #"{"prompt": "Two roommates discover the fridge is haunted.", "genre": "comedy", "mood": "funny", "length": "\#(length)", "names": ["Maya", "Jordan"]}"#
            )
            let outcome = try await Self.run("chat.generate", input, harness: harness, client: client)
            let conversationJSON = try #require(outcome.result?["conversation"], "\(outcome.job)")
            let conversation = try conversationJSON.decode(as: ChatConversation.self)
            try ChatExportInput(conversation: conversation).validate()
            let range = try #require(ChatGenerateInput.Length(rawValue: length)).messages
            #expect(range.contains(conversation.messages.count))
            #expect(conversation.characters.map(\.name) == ["Maya", "Jordan"])
            #expect(Set(conversation.messages.map(\.character)) == Set(conversation.characters.map(\.id)), "both characters speak")
            // The conversation is a video.chat_export input as it is: the API's own admission check takes it.
            let exportKind = try #require(KindDefinition.catalog["video.chat_export"])
            _ = try exportKind.admit(.object(["conversation": conversationJSON]))
        }
    }

    @Test func chatGenerateWorksThroughOpenAIsStrictSchemaToo() async throws {
        try await Harness.with { harness in
            // Anthropic's key is out of money: the route moves on to OpenAI, which gets the schema as response_format.
            let scenario = SimulatorScenario(rules: [.init(route: "anthropic.messages", fault: "quota_exhausted")])
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("chattale")
            let input = try Self.json(#"{"prompt": "A text from an unknown number.", "genre": "mystery", "mood": "scary", "length": "short"}"#)
            let outcome = try await Self.run("chat.generate", input, harness: harness, client: client)
            #expect(outcome.result?["provider"]?.stringValue == "openai", "\(outcome.job)")
            let conversation = try #require(outcome.result?["conversation"]).decode(as: ChatConversation.self)
            try ChatExportInput(conversation: conversation).validate()
            #expect((5...10).contains(conversation.messages.count))
            #expect(conversation.characters.count == 2 && conversation.characters[0].name != conversation.characters[1].name)
        }
    }

    @Test func chatGenerateIsForPremiumIdentitiesOnly() async throws {
        try await Harness.with { harness in
            // ChatTale's tiers as in deploy/policies.json, trimmed: the free tier excludes chat.generate.
            try harness.usePolicies(
                ChatExportJobTests.policy.replacingOccurrences(
                    of: #""max_devices_per_day": 4}"#, with: #""max_devices_per_day": 4, "excluded_kinds": ["chat.generate"]}"#
                )
                .replacingOccurrences(of: #""daily": {"video": 3}"#, with: #""daily": {"video": 3, "text": 5}"#)
                .replacingOccurrences(of: #""daily": {"video": "unlimited"}"#, with: #""daily": {"video": "unlimited", "text": 100}"#)
                .replacingOccurrences(
                    of: #""kinds": {"video.chat_export""#, with: #""kinds": {"chat.generate": {"class": "text", "cost": 1}, "video.chat_export""#))
            let client = try await harness.tenant("chattale")
            try await harness.startAPI()
            let body = #"{"kind":"chat.generate","input":{"prompt":"A surprise party.","genre":"comedy","mood":"funny","length":"short"}}"#
            let free = try await ChatExportJobTests.submit(harness, client, tier: "free", body: body)
            #expect(free.status == 403)
            #expect(free.json?["code"]?.stringValue == "upgrade_required")
            let premium = try await ChatExportJobTests.submit(harness, client, tier: "premium", body: body)
            #expect(premium.status == 202)
        }
    }

    static let campaignState = #"""
        {"character": {"name": "Kael", "class": "rogue", "level": 3, "hp": 18, "max_hp": 24, "inventory": ["dagger", "rope", "lockpicks"]},
         "npcs": [{"name": "Old Brannoc", "hp": 10, "max_hp": 12, "attitude": "friendly"},
                  {"name": "Sera Vane", "hp": 12, "max_hp": 12, "attitude": "hostile"}],
         "location": "The Drowned Chapel", "locations": ["Saltmarsh", "The Drowned Chapel"],
         "combat": {"active": false, "combatants": []}}
        """#

    @Test func campaignOpenGivesSceneOneAndAConsistentInitialState() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("worldarchitect")
            let input = try Self.json(
                #"{"setting": "A drowned kingdom where bells ring under the sea.", "character": {"name": "Kael", "class": "rogue"}, "style": "grim and terse"}"#
            )
            let outcome = try await Self.run("campaign.open", input, harness: harness, client: client)
            let result = try #require(outcome.result, "\(outcome.job)")
            #expect(result["scene_number"]?.intValue == 1)
            let narrative = try #require(result["narrative"]?.stringValue)
            #expect(outcome.deltas[0] == narrative, "the narrative streamed as it was written")
            #expect((2...5).contains(result["planning_block"]?["choices"]?.arrayValue?.count ?? 0))
            let state = try #require(result["state"]).decode(as: CampaignState.self)
            #expect(state.inconsistency(field: "state") == nil)
            #expect(state.character.name == "Kael" && state.character.characterClass == "rogue")
            #expect(state.character.hp == state.character.maxHP && !state.combat.active)
        }
    }

    @Test(arguments: [false, true])
    func campaignTurnGivesTheNextSceneAndAnUpdateConsistentWithTheState(inCombat: Bool) async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("worldarchitect")
            var given = try Self.json(Self.campaignState).decode(as: CampaignState.self)
            if inCombat { given.combat = CampaignState.Combat(active: true, combatants: ["Sera Vane"]) }
            let stateJSON = try #require(JSONValue.parse(String(decoding: try JSONEncoder().encode(given), as: UTF8.self)))
            let input = JSONValue.object([
                "state": stateJSON, "scene_number": 4,
                "recent_scenes": try Self.json(#"[{"number": 4, "narrative": "The chapel doors groan open onto black water."}]"#),
                "action": .string(inCombat ? "I throw my dagger at Sera Vane." : "I wade in and search the altar."),
            ])
            let outcome = try await Self.run("campaign.turn", input, harness: harness, client: client)
            let result = try #require(outcome.result, "\(outcome.job)")
            #expect(result["scene_number"]?.intValue == 5)
            #expect(outcome.deltas[0] == result["narrative"]?.stringValue)
            #expect((2...5).contains(result["planning_block"]?["choices"]?.arrayValue?.count ?? 0))
            let state = try #require(result["state"]).decode(as: CampaignState.self)
            #expect(state.inconsistency(field: "state") == nil, "the state the app receives holds together")
            #expect(given.npcs.allSatisfy { npc in state.npcs.contains { $0.name == npc.name } }, "no NPC is lost")
            #expect(state.character.hp >= 0 && state.npcs.allSatisfy { $0.hp >= 0 })
            let update = try #require(result["state_update"]).decode(as: CampaignStateUpdate.self)
            #expect(CampaignStateUpdate.allowedStatuses(after: given.combat).contains(update.combat.status))
            #expect(state.combat.active == update.combat.status.isActive)
        }
    }

    @Test func aMalformedAnswerIsRepairedOnce() async throws {
        try await Harness.with(Harness.minuteLeases) { harness in
            let scenario = SimulatorScenario(rules: [.init(route: "anthropic.messages", fault: "invalid_json", times: 1)])
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let outcome = try await Self.run("text.continue", try Self.json(Self.continueInput), harness: harness, client: client)
            #expect(outcome.job["status"]?.stringValue == "succeeded", "\(outcome.job)")
            #expect(outcome.result?["repaired"] == .bool(true), "\(outcome.job) \(outcome.events)")
            let continuations = try #require(outcome.result?["continuations"]?.arrayValue)
            #expect(continuations.count == 3)
            for (index, continuation) in continuations.enumerated() {
                #expect(outcome.deltas[index] == continuation["text"]?.stringValue, "after the retraction, the repaired text streamed")
            }
            let id = try #require(outcome.job["id"]?.stringValue.flatMap(JobID.init(validating:)))
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).count == 2, "the answer and its repair")
        }
    }

    @Test func aSecondMalformedAnswerFailsTheJobWithInvalidModelOutput() async throws {
        try await Harness.with { harness in
            let scenario = SimulatorScenario(rules: [.init(route: "anthropic.messages", fault: "invalid_json")])
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let outcome = try await Self.run("text.opening", try Self.json(#"{"title": "Ash and Ember"}"#), harness: harness, client: client)
            #expect(["failed", "dead"].contains(outcome.job["status"]?.stringValue))
            #expect(outcome.job["error"]?["code"]?.stringValue == "invalid_model_output")
            let id = try #require(outcome.job["id"]?.stringValue.flatMap(JobID.init(validating:)))
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).count == 2, "one repair, no more, and no retry")
        }
    }

    @Test func aContinuationTheSafetyFilterRefusesIsWithdrawnAndWrittenOnceMore() async throws {
        try await Harness.with(Harness.minuteLeases) { harness in
            // Every second moderation call is flagged: the input passes, the first answer does not, the second does.
            let scenario = SimulatorScenario(rules: [.init(route: "openai.moderations", fault: "flagged", every: 2)])
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let outcome = try await Self.run("text.continue", try Self.json(Self.continueInput), harness: harness, client: client)
            #expect(outcome.job["status"]?.stringValue == "succeeded", "\(outcome.job)")
            let retraction = try #require(outcome.events.firstIndex(of: "retract"))
            #expect(outcome.events[..<retraction].contains("delta") && outcome.events[retraction...].contains("delta"))
            let continuations = try #require(outcome.result?["continuations"]?.arrayValue)
            #expect(continuations.enumerated().allSatisfy { outcome.deltas[$0.offset] == $0.element["text"]?.stringValue })
        }
    }

    @Test func anInputTheSafetyFilterRefusesEndsTheJobBeforeAnyModelCall() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let input = try Self.json(#"{"last_node_text": "The gore covered the walls of the keep."}"#)
            let outcome = try await Self.run("text.continue", input, harness: harness, client: client)
            #expect(outcome.job["error"]?["code"]?.stringValue == "content_filtered")
            let id = try #require(outcome.job["id"]?.stringValue.flatMap(JobID.init(validating:)))
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).isEmpty)
        }
    }

    @Test(arguments: [
        ("text.continue", #"{"path_summaries":[]}"#, "input.last_node_text"),
        ("text.continue", #"{"last_node_text":""}"#, "input.last_node_text"),
        ("text.opening", #"{"title":"T","prompt":""}"#, "input.prompt"),
        ("chat.generate", #"{"prompt":"p","genre":"comedy","mood":"funny","length":"epic"}"#, "input.length"),
        ("chat.generate", #"{"prompt":"p","genre":"comedy","mood":"funny","length":"short","names":["A","B","C"]}"#, "input.names"),
        ("campaign.open", #"{"setting":"s","character":{}}"#, "input.character.name"),
        (
            "campaign.turn",
            #"{"scene_number":1,"action":"a","state":{"character":{"name":"K","class":"rogue","level":1,"hp":30,"max_hp":20,"inventory":[]},"npcs":[],"location":"x","locations":[],"combat":{"active":false,"combatants":[]}}}"#,
            "input.state.character.hp"
        ),
        (
            "campaign.turn",
            #"{"scene_number":1,"action":"a","state":{"character":{"name":"K","class":"rogue","level":1,"hp":3,"max_hp":20,"inventory":[]},"npcs":[],"location":"x","locations":[],"combat":{"active":true,"combatants":["Ghost"]}}}"#,
            "input.state.combat.combatants[0]"
        ),
    ])
    func aBadInputIsA400NamingTheField(kind: String, input: String, field: String) async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            let client = try await harness.tenant("apps")
            let body = #"{"kind":"\#(kind)","input":\#(input)}"#
            let (status, json, _) = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body))
            #expect(status == 400)
            #expect(json?["code"]?.stringValue == "invalid_input")
            #expect(json?["field"]?.stringValue == field)
        }
    }
}
