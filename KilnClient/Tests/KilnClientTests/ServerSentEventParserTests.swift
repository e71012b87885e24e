import Foundation
import KilnClient
import Testing

@Suite struct ServerSentEventParserTests {
    static let stream = Data(
        """
        id: 1-0
        event: status
        data: {"attempt":0,"state":"queued"}

        : keep-alive

        id: 1-1\r
        event: delta\r
        data: {"text":"Ünïcödé 🐉 across a cut"}\r
        \r
        id: 1-2
        data: first line
        data: second line


        """.utf8)

    static let expected: [ServerSentEventParser.Event] = [
        .init(id: "1-0", type: "status", data: #"{"attempt":0,"state":"queued"}"#),
        .init(id: "1-1", type: "delta", data: #"{"text":"Ünïcödé 🐉 across a cut"}"#),
        .init(id: "1-2", type: "message", data: "first line\nsecond line"),
    ]

    @Test func theWholeStreamGivesEachEventWithItsIDTypeAndData() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Self.stream) == Self.expected)
    }

    /// A connection delivers bytes cut anywhere, inside a line or a UTF-8 character: the events are the same.
    @Test func aStreamCutAtAnyByteGivesTheSameEvents() {
        for cut in 1..<Self.stream.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(Self.stream.prefix(cut)) + parser.feed(Self.stream.dropFirst(cut))
            #expect(events == Self.expected, "cut at byte \(cut)")
        }
    }

    @Test func anEventIsNotGivenUntilItsBlankLine() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Data("id: 1-0\nevent: delta\ndata: {}\n".utf8)).isEmpty)
        #expect(parser.feed(Data("\n".utf8)) == [.init(id: "1-0", type: "delta", data: "{}")])
    }
}
