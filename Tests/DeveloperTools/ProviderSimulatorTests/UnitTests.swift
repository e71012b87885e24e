import Foundation
import KilnJSON
import NIOCore
import NIOPosix
import RenderingFixtures
import Testing

@testable import ProviderSimulator

@Suite("Fault specs")
struct FaultSpecTests {
    @Test func parsesModeAndParameters() throws {
        let spec = try FaultSpec(parsing: " rate_limit; retry_after=3 ;http_date=1; times=2; key=abc ")
        #expect(spec.mode == .rateLimit)
        #expect(spec.integer("retry_after", default: 7) == 3)
        #expect(spec.flag("http_date"))
        #expect(spec.times == 2)
        #expect(spec.counterKey == "abc")
    }

    @Test func everyModeParses() throws {
        for mode in FaultMode.allCases {
            let text = mode == .status ? "status; code=404" : mode.rawValue
            #expect(try FaultSpec(parsing: text).mode == mode)
        }
    }

    @Test(arguments: ["", "explode", "rate_limit; retry_after", "rate_limit; times=two", "status", "status; code=200", "status; code=abc"])
    func rejectsMalformedSpecs(text: String) {
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: text) }
    }

    @Test func directiveIsFoundAndStripped() {
        let prompt = "Tell a story. [[fault: cut; after_events=2]] Please."
        #expect(FaultDirective.first(in: prompt) == "cut; after_events=2")
        #expect(FaultDirective.stripped(prompt) == "Tell a story. Please.")
        #expect(FaultDirective.first(in: "no directive [[fault: open") == nil)
    }

    @Test func timesCountsPerKeyAndScenarioRulesFire() throws {
        let state = SimulatorState(
            scenario: SimulatorScenario(rules: [
                .init(route: "openai.chat", fault: "overloaded", every: 2),
                .init(route: "anthropic.messages", model: "claude-x", fault: "server_error", times: 1),
            ]))
        #expect(try state.fault(route: "x", model: nil, header: "cut; times=1; key=k", prompt: nil)?.mode == .cut)
        #expect(try state.fault(route: "x", model: nil, header: "cut; times=1; key=k", prompt: nil) == nil)
        #expect(try state.fault(route: "x", model: nil, header: "cut; times=1; key=other", prompt: nil)?.mode == .cut)
        let chat = try (1...4).map { _ in try state.fault(route: "openai.chat", model: "m", header: nil, prompt: nil)?.mode }
        #expect(chat == [nil, .overloaded, nil, .overloaded])
        #expect(try state.fault(route: "anthropic.messages", model: "claude-y", header: nil, prompt: nil) == nil)
        #expect(try state.fault(route: "anthropic.messages", model: "claude-x", header: nil, prompt: nil)?.mode == .serverError)
        #expect(try state.fault(route: "anthropic.messages", model: "claude-x", header: nil, prompt: nil) == nil)
        // The header wins over the prompt's directive.
        #expect(try state.fault(route: "x", model: nil, header: "hang", prompt: "[[fault: cut]]")?.mode == .hang)
        #expect(try state.fault(route: "x", model: nil, header: nil, prompt: "[[fault: cut]]")?.mode == .cut)
    }

    @Test func percentRulesAreRepeatable() throws {
        let scenario = SimulatorScenario(rules: [.init(fault: "server_error", percent: 30, seed: 7)])
        func run() throws -> [Bool] {
            let state = SimulatorState(scenario: scenario)
            return try (0..<200).map { _ in try state.fault(route: "r", model: nil, header: nil, prompt: nil) != nil }
        }
        let first = try run()
        #expect(try run() == first)
        #expect((30...90).contains(first.filter { $0 }.count))
    }

    @Test func scenarioDecodesFromJSONAndRejectsBadFaults() throws {
        let json = #"{"rules":[{"route":"openai.chat","fault":"rate_limit; retry_after=2","every":3},{"fault":"cut","percent":5,"seed":1}]}"#
        let scenario = try SimulatorScenario(json: Data(json.utf8))
        #expect(scenario.rules.count == 2)
        #expect(scenario.rules[0].every == 3)
        #expect(throws: (any Error).self) { try SimulatorScenario(json: Data(#"{"rules":[{"fault":"nope"}]}"#.utf8)) }
    }
}

@Suite("Transmission plans")
struct TransmissionTests {
    static let stream = EventStream(
        events: (0..<5).map { SSEEvent(name: "e", data: "\($0)") }, terminalEvents: 1, keepAlive: SSEEvent(comment: "keep-alive"),
        inBandError: SSEEvent(name: "error", data: "boom"), malformed: SSEEvent(data: "{"))

    func written(_ transmission: Transmission) -> String {
        String(decoding: transmission.steps.flatMap { step -> [UInt8] in if case .write(let bytes) = step { bytes } else { [] } }, as: UTF8.self)
    }

    @Test func normalStreamWritesEveryEventAndFinishes() {
        let plan = Transmission(stream: Self.stream, fault: nil, interval: .zero)
        #expect(written(plan) == "event: e\ndata: 0\n\nevent: e\ndata: 1\n\nevent: e\ndata: 2\n\nevent: e\ndata: 3\n\nevent: e\ndata: 4\n\n")
        #expect(plan.steps.last == .finish)
    }

    @Test func faultsReshapeTheStream() throws {
        let cut = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "cut; after_events=2"), interval: .zero)
        #expect(written(cut) == "event: e\ndata: 0\n\nevent: e\ndata: 1\n\n")
        #expect(cut.steps.last == .cut)
        let stall = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "stall"), interval: .zero)
        #expect(stall.steps.last == .stall)
        let final = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "no_final_event"), interval: .zero)
        #expect(!written(final).contains("data: 4"))
        #expect(final.steps.last == .finish)
        let error = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "stream_error; after_events=1"), interval: .zero)
        #expect(written(error) == "event: e\ndata: 0\n\nevent: error\ndata: boom\n\n")
        let crlf = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "crlf"), interval: .zero)
        #expect(written(crlf).hasPrefix("event: e\r\ndata: 0\r\n\r\n"))
        let keepalive = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "keepalive; count=2"), interval: .zero)
        #expect(written(keepalive).hasPrefix(": keep-alive\n\n: keep-alive\n\nevent: e"))
        let malformed = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "malformed; after_events=0"), interval: .zero)
        #expect(written(malformed).hasPrefix("data: {\n\nevent: e"))
    }

    @Test func trickleSplitsWritesWithoutChangingTheBytes() throws {
        let plain = Transmission(stream: Self.stream, fault: nil, interval: .zero)
        let trickled = Transmission(stream: Self.stream, fault: try FaultSpec(parsing: "trickle; bytes=3"), interval: .zero)
        #expect(written(trickled) == written(plain))
        for step in trickled.steps {
            if case .write(let bytes) = step { #expect(bytes.count <= 3) }
        }
    }

    @Test func bodyCutSendsHalf() throws {
        let body = Array("0123456789".utf8)
        let cut = Transmission(body: body, fault: try FaultSpec(parsing: "cut"))
        #expect(cut.steps == [.write(Array("01234".utf8)), .cut])
    }
}

@Suite("Content")
struct ContentTests {
    @Test(arguments: ["Once upon  a time —\nthe end.", "Once upon  a time -\r\nthe\tend.\u{0B}x", "  Once upon a time"])
    func piecesJoinToTheTextAndCountWords(text: String) {
        let pieces = TokenCount.pieces(of: text)
        #expect(pieces.joined() == text)
        #expect(pieces.count == TokenCount.words(in: text))
        #expect(pieces.first?.hasSuffix("Once") == true)
        #expect(pieces.dropFirst().allSatisfy { $0.first?.isWhitespace == true && $0.last?.isWhitespace == false })
    }

    @Test func completionCutsAtStopSequenceThenMaxTokens() {
        let stopped = Completion(generated: "one two three four five", maxTokens: 10, stopSequences: ["four"])
        #expect(stopped.text == "one two three ")
        #expect(stopped.stop == .stopSequence("four"))
        let limited = Completion(generated: "one two three four five", maxTokens: 2)
        #expect(limited.text == "one two")
        #expect(limited.stop == .maxTokens)
        #expect(limited.outputTokens == 2)
    }

    @Test func anthropicsTextDeltaIsItsDocumentsCanonicalJSON() {
        for text in ["Once", " upon", " \"quoted\"\n", " back\\slash\t", " \u{1}é —", ""] {
            let document: JSONValue = .object([
                "type": "content_block_delta", "index": 0, "delta": .object(["type": "text_delta", "text": .string(text)]),
            ])
            let event = AnthropicMessages.textDelta(text)
            #expect(event.data == document.canonicalJSON())
            #expect(event.name == "content_block_delta")
            #expect(JSONValue.parse(event.data ?? "")?["delta"]?["text"]?.stringValue == text)
        }
    }

    @Test func passagesAreDeterministicProse() {
        var first = StoryWriter(seed: "a")
        var again = StoryWriter(seed: "a")
        var other = StoryWriter(seed: "b")
        let passage = first.passage()
        #expect(passage == again.passage())
        #expect(passage != other.passage())
        #expect((40...125).contains(TokenCount.words(in: passage)))
        #expect(passage.hasSuffix("."))
    }

    @Test func schemaInstancesSatisfyTheirSchemas() throws {
        let schema = try #require(
            JSONValue.parse(
                #"""
                {"type":"object","$defs":{"item":{"type":"object","properties":{"name":{"type":"string","maxLength":12},"weight":{"type":"number","minimum":0.5,"exclusiveMaximum":2}}}},
                 "properties":{"title":{"type":"string","minLength":30,"maxLength":40},"kind":{"enum":["a","b"]},"level":{"type":"integer","minimum":-3,"maximum":-1},
                 "tags":{"type":"array","items":{"type":"string"}},"few":{"type":"array","maxItems":1,"items":{"type":"boolean"}},
                 "many":{"type":"array","minItems":5,"items":{"$ref":"#/$defs/item"}},"maybe":{"type":["null","string"]},"fixed":{"const":42},
                 "gemini":{"type":"OBJECT","properties":{"n":{"type":"INTEGER"}}}}}
                """#))
        for seed in ["x", "y", "z"] {
            var generator = SchemaInstanceGenerator(schema: schema, seed: seed)
            let value = generator.instance()
            let title = try #require(value["title"]?.stringValue)
            #expect((30...40).contains(title.count))
            #expect(["a", "b"].contains(value["kind"]?.stringValue ?? ""))
            #expect((-3...(-1)).contains(value["level"]?.intValue ?? 0))
            #expect(value["tags"]?.arrayValue?.count == 3)
            #expect(value["few"]?.arrayValue?.count == 1)
            let many = try #require(value["many"]?.arrayValue)
            #expect(many.count == 5)
            for item in many {
                #expect((item["name"]?.stringValue?.count ?? 99) <= 12)
                let weight = try #require(item["weight"]?.numberValue)
                #expect(weight >= 0.5 && weight < 2)
            }
            #expect(value["maybe"]?.stringValue != nil)
            #expect(value["fixed"] == 42)
            #expect(value["gemini"]?["n"]?.intValue != nil)
            // The serialized instance is JSON that Foundation reads back.
            #expect(try JSONSerialization.jsonObject(with: Data(value.canonicalJSON().utf8)) is [String: Any])
        }
    }
}

@Suite("Images")
struct ImageTests {
    @Test(arguments: [(1, 1), (7, 3), (256, 256), (300, 200)])
    func pngHasTheSizeAndValidChunks(width: Int, height: Int) throws {
        let png = GeneratedImage(prompt: "a castle", index: 0, width: width, height: height).png
        let parsed = try #require(ParsedPNG(png))
        #expect(parsed.width == width)
        #expect(parsed.height == height)
        #expect(parsed.chunkTypes == ["IHDR", "IDAT", "IEND"])
        #expect(parsed.crcsValid)
    }

    @Test func zlibStreamIsStoredBlocksWithAdler32() {
        // 70,000 bytes need two stored blocks.
        let data = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let stream = PNGEncoder.zlibStored(data)
        #expect(Array(stream.prefix(2)) == [0x78, 0x01])
        #expect((UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0)
        #expect(stream[2] == 0)
        #expect(Array(stream[3...4]) == [0xFF, 0xFF])
        let second = 2 + 5 + 65_535
        #expect(stream[second] == 1)
        #expect(stream.count == 2 + 5 + 65_535 + 5 + (70_000 - 65_535) + 4)
        // Adler-32 computed the slow way.
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        #expect(Array(stream.suffix(4)) == [UInt8(b >> 8), UInt8(b & 0xFF), UInt8(a >> 8), UInt8(a & 0xFF)])
        #expect(Array(stream[(second + 5)..<(stream.count - 4)]) == Array(data[65_535...]))
    }

    @Test func imagesAreDeterministicInThePromptAndRoundTripTheirFileName() {
        let image = GeneratedImage(prompt: "a castle", index: 0, width: 64, height: 32)
        #expect(image.png == GeneratedImage(prompt: "a castle", index: 0, width: 64, height: 32).png)
        #expect(image.png != GeneratedImage(prompt: "a forest", index: 0, width: 64, height: 32).png)
        #expect(GeneratedImage(fileName: image.fileName) == image)
        #expect(GeneratedImage(fileName: "zz-1x1.png") == nil)
        #expect(GeneratedImage(fileName: "ab-99999x1.png") == nil)
    }
}

@Suite("Multipart forms")
struct MultipartFormTests {
    @Test func parsesFieldsAndRepeatedFiles() throws {
        let boundary = "----kiln7MA4YWxkTrZu0gW"
        var body = Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nAdd a dragon\r\n".utf8)
        for (index, bytes) in [[0x89, 0x50, 0x0D, 0x0A], [0x00, 0x2D, 0x2D]].enumerated() {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"image[]\"; filename=\"in\(index).png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8)
            body += bytes.map(UInt8.init) + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"size\"\r\n\r\n1024x1536\r\n--\(boundary)--\r\n".utf8)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=\"\(boundary)\"") == boundary)
        #expect(MultipartForm.boundary(contentType: "application/json") == nil)
        let form = try MultipartForm(body: body, boundary: boundary)
        #expect(form.parts.map(\.name) == ["prompt", "image[]", "image[]", "size"])
        #expect(form.value("prompt") == "Add a dragon")
        #expect(form.value("size") == "1024x1536")
        let images = form.parts(named: ["image", "image[]"])
        #expect(images.map(\.filename) == ["in0.png", "in1.png"])
        #expect(images.map(\.contentType) == ["image/png", "image/png"])
        #expect(images[0].body == [0x89, 0x50, 0x0D, 0x0A])
        #expect(images[1].body == [0x00, 0x2D, 0x2D])
    }

    @Test func rejectsUnterminatedBodies() {
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nvalue".utf8)
        #expect(throws: MultipartForm.ParseError.self) { try MultipartForm(body: body, boundary: "b") }
        #expect(throws: MultipartForm.ParseError.self) { try MultipartForm(body: Array("nothing".utf8), boundary: "b") }
    }
}

@Suite("Pauses between streamed pieces")
struct EventLoopPauseTests {
    @Test func cancellingTheTaskEndsALongPauseWithCancellationError() async {
        let pause = Task { try await EventLoopPause.wait(for: .seconds(600)) }
        pause.cancel()
        await #expect(throws: CancellationError.self) { try await pause.value }
    }

    @Test func cancellingOnePauseOfAQueueEndsItAloneAndTheOthersStillEnd() async throws {
        // Long enough that the middle one is still waiting when this test, however late it resumes, cancels it.
        let queue = PauseQueue.on(MultiThreadedEventLoopGroup.singleton.next(), lasting: .seconds(15))
        let pauses = (0..<3).map { _ in Task { try await queue.wait() } }
        // Most likely waiting by now, so the cancellation takes the middle one out of the queue.
        try await Task.sleep(for: .milliseconds(100))
        pauses[1].cancel()
        await #expect(throws: CancellationError.self) { try await pauses[1].value }
        try await pauses[0].value
        try await pauses[2].value
    }
}
