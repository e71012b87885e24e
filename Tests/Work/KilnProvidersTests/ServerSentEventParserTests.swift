import Foundation
import KilnProviders
import Testing

@Suite struct ServerSentEventParserTests {
    /// An Anthropic stream as the documentation shows it, with a multi-byte character to split.
    static let stream = """
        event: message_start
        data: {"type":"message_start"}

        : a comment, as OpenRouter sends for keep-alive

        event: content_block_delta
        data: {"text":"Hé"}

        data: first line
        data: second line
        id: 42

        event: message_stop
        data: {"type":"message_stop"}


        """

    static let expected = [
        ServerSentEvent(event: "message_start", data: #"{"type":"message_start"}"#),
        ServerSentEvent(event: "content_block_delta", data: #"{"text":"Hé"}"#),
        ServerSentEvent(data: "first line\nsecond line", id: "42"),
        ServerSentEvent(event: "message_stop", data: #"{"type":"message_stop"}"#, id: "42"),
    ]

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEndingGivesTheSameEvents(lineEnding: String) {
        var parser = ServerSentEventParser()
        let bytes = Array(Self.stream.replacingOccurrences(of: "\n", with: lineEnding).utf8)
        #expect(parser.parse(bytes) == Self.expected)
        #expect(!parser.hasPartialEvent)
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func splittingTheBytesAnywhereChangesNothing(lineEnding: String) {
        let bytes = Array(Self.stream.replacingOccurrences(of: "\n", with: lineEnding).utf8)
        for split in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.parse(bytes[..<split]) + parser.parse(bytes[split...])
            #expect(events == Self.expected, "split at byte \(split)")
        }
    }

    @Test func oneByteAtATimeChangesNothing() {
        var parser = ServerSentEventParser()
        let events = Array(Self.stream.utf8).flatMap { parser.parse([$0]) }
        #expect(events == Self.expected)
    }

    @Test func anEventCutOffBeforeItsBlankLineIsNotDispatched() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: whole\n\ndata: {\"cut".utf8)) == [ServerSentEvent(data: "whole")])
        #expect(parser.hasPartialEvent)
    }

    @Test func oneSpaceAfterTheColonIsDroppedAndNoMore() {
        var parser = ServerSentEventParser()
        let events = parser.parse(Array("data:none\n\ndata:  two\n\ndata\n\n".utf8))
        #expect(events.map(\.data) == ["none", " two", ""])
    }

    @Test func aLargeEventArrivesWhole() {
        let payload = String(repeating: "x", count: 70_000)
        var parser = ServerSentEventParser()
        let bytes = Array("data: \(payload)\n\n".utf8)
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            events += parser.parse(bytes[start..<min(start + 1000, bytes.count)])
        }
        #expect(events == [ServerSentEvent(data: payload)])
    }
}
