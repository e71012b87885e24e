import JoanieInputs
import KilnCore
import KilnJSON

/// Joanie's two kinds: a bedtime story told in paragraphs from a child's drawings (attached to the prompt as images)
/// and where each drawing goes. The story has one paragraph per drawing and two more (a beginning and a calm end),
/// and the answer describes the drawings in order, so every drawing is placed exactly once by construction; Kiln
/// checks each paragraph's length and that each placement points at a paragraph.
///
/// `story.continue` writes a new chapter the same way; its placements are numbered after the earlier paragraphs, so
/// the app appends the chapter and its drawings to what it shows.
struct DrawingStoryKind<Input: KindInput>: StructuredTextKind {
    static var words: ClosedRange<Int> { 40...90 }

    let promptID: String
    let schemaName: String
    /// The drawings' upload ids, in order.
    private let drawings: @Sendable (Input) -> [String]
    /// The paragraphs the story had before this job (none for a new story).
    private let earlierParagraphs: @Sendable (Input) -> Int
    /// The title, when the story already has one.
    private let existingTitle: @Sendable (Input) -> String?

    var maxTokens: Int { 4096 }

    private func paragraphCount(_ input: Input) -> Int { drawings(input).count + 2 }

    func attachedUploads(in input: Input) -> [String] { drawings(input) }

    func promptValues(for input: Input, raw: JSONValue) -> JSONValue {
        guard case .object(var values) = raw else { return raw }
        values["drawing_count"] = .number(Double(drawings(input).count))
        values["paragraph_count"] = .number(Double(paragraphCount(input)))
        return .object(values)
    }

    func schema(for input: Input) -> JSONValue {
        let paragraphs = paragraphCount(input)
        let drawing = Schema.object([
            "shows": Schema.string(length: 1...200),
            "after_paragraph": Schema.integer(1...paragraphs),
        ])
        return Schema.object([
            "title": Schema.string(length: 1...80),
            "paragraphs": Schema.array(
                of: Schema.string(description: "A paragraph of \(Self.words.lowerBound)–\(Self.words.upperBound) words."),
                count: paragraphs...paragraphs),
            "drawings": Schema.array(of: drawing, count: drawings(input).count...drawings(input).count),
        ])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? { nil }

    func result(from answer: JSONValue, input: Input) -> Result<DrawingStory, StructuredAnswerRejected> {
        let paragraphs = (answer["paragraphs"]?.arrayValue ?? []).compactMap(\.stringValue)
        var violations = paragraphs.enumerated().compactMap { index, paragraph in
            WordCount.check(paragraph, Self.words, at: "$.paragraphs[\(index)]")
        }
        let offset = earlierParagraphs(input)
        var placements: [DrawingStory.Placement] = []
        for (index, (upload, drawing)) in zip(drawings(input), answer["drawings"]?.arrayValue ?? []).enumerated() {
            let after = drawing["after_paragraph"]?.intValue ?? 0
            if !(1...paragraphs.count).contains(after) {
                violations.append(
                    OutputViolation(path: "$.drawings[\(index)].after_paragraph", reason: "must name one of the \(paragraphs.count) paragraphs"))
            }
            placements.append(DrawingStory.Placement(uploadID: upload, afterParagraph: offset + after, shows: drawing["shows"]?.stringValue ?? ""))
        }
        guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
        return .success(
            DrawingStory(
                title: existingTitle(input) ?? answer["title"]?.stringValue ?? "", paragraphs: paragraphs, imagePlacements: placements))
    }
}

extension DrawingStoryKind where Input == StoryFromDrawingsInput {
    /// `story.from_drawings`: a new story.
    static var fromDrawings: Self {
        Self(
            promptID: "story.from_drawings.v1", schemaName: "bedtime_story", drawings: { $0.drawings }, earlierParagraphs: { _ in 0 },
            existingTitle: { _ in nil })
    }
}

extension DrawingStoryKind where Input == StoryContinueInput {
    /// `story.continue`: a new chapter of an earlier story.
    static var continued: Self {
        Self(
            promptID: "story.continue.v1", schemaName: "bedtime_story_chapter", drawings: { $0.drawings },
            earlierParagraphs: { $0.story.paragraphs.count }, existingTitle: { $0.story.title })
    }
}
