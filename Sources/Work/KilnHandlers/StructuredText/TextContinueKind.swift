import KilnJSON
import TalevoniaInputs

/// `text.continue`: exactly three candidate continuations of 80–200 words in distinct directions, each with a
/// one-line summary and tags; each candidate's text streams as `delta` events with its index as `choice`.
struct TextContinueKind: StructuredTextKind {
    typealias Input = TextContinueInput

    static let candidates = 3
    static let words = 80...200

    var promptID: String { "text.continue.v1" }
    var schemaName: String { "story_continuations" }
    var maxTokens: Int { 2048 }

    func schema(for input: TextContinueInput) -> JSONValue {
        let candidate = Schema.object([
            "summary": Schema.summary,
            "tags": Schema.tags,
            "text": Schema.string(description: "The continuation itself: \(Self.words.lowerBound)–\(Self.words.upperBound) words of story prose."),
        ])
        return Schema.object(["continuations": Schema.array(of: candidate, count: Self.candidates...Self.candidates)])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? {
        guard path.count == 3, path[0] == .key("continuations"), path[2] == .key("text"), case .index(let index) = path[1] else { return nil }
        return index
    }

    func result(from answer: JSONValue, input: TextContinueInput) -> Result<StoryContinuations, StructuredAnswerRejected> {
        let candidates = answer["continuations"]?.arrayValue ?? []
        var violations: [OutputViolation] = []
        var seenSummaries: [String: Int] = [:]
        var seenTexts: [String: Int] = [:]
        var continuations: [StoryPassage] = []
        for (index, candidate) in candidates.enumerated() {
            let text = candidate["text"]?.stringValue ?? ""
            let summary = candidate["summary"]?.stringValue ?? ""
            let path = "$.continuations[\(index)]"
            if let violation = WordCount.check(text, Self.words, at: "\(path).text") { violations.append(violation) }
            // Distinct directions: no two candidates may tell, or sum up, the same thing.
            if let earlier = seenTexts.updateValue(index, forKey: Self.normalized(text)) {
                violations.append(
                    OutputViolation(path: "\(path).text", reason: "repeats continuation \(earlier); each must go in a different direction"))
            }
            if let earlier = seenSummaries.updateValue(index, forKey: Self.normalized(summary)) {
                violations.append(
                    OutputViolation(
                        path: "\(path).summary", reason: "repeats the summary of continuation \(earlier); each must go in a different direction"))
            }
            let tags = (candidate["tags"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.lowercased() }
            continuations.append(StoryPassage(text: text, summary: summary, tags: tags, wordCount: WordCount.of(text)))
        }
        guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
        return .success(StoryContinuations(continuations: continuations))
    }

    private static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
    }
}
