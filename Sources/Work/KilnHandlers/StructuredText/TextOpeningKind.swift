import KilnJSON
import TalevoniaInputs

/// `text.opening`: a new story's opening paragraph of 60–150 words, with its summary and tags; the text streams as
/// `delta` events.
struct TextOpeningKind: StructuredTextKind {
    typealias Input = TextOpeningInput

    static let words = 60...150

    var promptID: String { "text.opening.v1" }
    var schemaName: String { "story_opening" }
    var maxTokens: Int { 1024 }

    func schema(for input: TextOpeningInput) -> JSONValue {
        Schema.object([
            "summary": Schema.summary,
            "tags": Schema.tags,
            "text": Schema.string(description: "The opening paragraph: \(Self.words.lowerBound)–\(Self.words.upperBound) words of story prose."),
        ])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? {
        path == [.key("text")] ? 0 : nil
    }

    func result(from answer: JSONValue, input: TextOpeningInput) -> Result<StoryPassage, StructuredAnswerRejected> {
        let text = answer["text"]?.stringValue ?? ""
        if let violation = WordCount.check(text, Self.words, at: "$.text") { return .failure(StructuredAnswerRejected([violation])) }
        let tags = (answer["tags"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.lowercased() }
        return .success(StoryPassage(text: text, summary: answer["summary"]?.stringValue ?? "", tags: tags, wordCount: WordCount.of(text)))
    }
}
