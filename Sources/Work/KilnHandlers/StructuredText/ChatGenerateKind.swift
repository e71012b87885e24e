import ChatTaleInputs
import Foundation
import KilnCore
import KilnJSON

/// `chat.generate`: a text-message conversation between two characters whose `conversation` is a
/// `video.chat_export` input's conversation as it is (``ChatConversation``, checked by ``ChatExportInput/validate()``),
/// with the message count inside the requested length's range.
struct ChatGenerateKind: StructuredTextKind {
    typealias Input = ChatGenerateInput

    /// The ids the two characters get in the conversation; A is the phone's owner, on the right.
    static let speakers = [(label: "A", id: "a", color: "#0A84FF"), (label: "B", id: "b", color: "#FF9F0A")]
    static let maxMessageLength = 300

    var promptID: String { "chat.generate.v1" }
    var schemaName: String { "chat_conversation" }
    var maxTokens: Int { 4096 }

    func promptValues(for input: ChatGenerateInput, raw: JSONValue) -> JSONValue {
        var values: [String: JSONValue] = [
            "prompt": .string(input.prompt), "genre": .string(input.genre.rawValue), "mood": .string(input.mood.rawValue),
            "length": .string(input.length.rawValue),
            "min_messages": .number(Double(input.length.messages.lowerBound)), "max_messages": .number(Double(input.length.messages.upperBound)),
        ]
        if let names = input.names { values["names"] = .array(names.map(JSONValue.string)) }
        return .object(values)
    }

    func schema(for input: ChatGenerateInput) -> JSONValue {
        let message = Schema.object([
            "speaker": Schema.oneOf(Self.speakers.map(\.label)),
            "text": Schema.string(length: 1...Self.maxMessageLength),
        ])
        return Schema.object([
            "title": Schema.string(length: 1...60),
            "character_names": Schema.array(of: Schema.string(length: 1...40), count: 2...2),
            "messages": Schema.array(of: message, count: input.length.messages),
        ])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? { nil }

    func result(from answer: JSONValue, input: ChatGenerateInput) -> Result<GeneratedChat, StructuredAnswerRejected> {
        let names = input.names ?? (answer["character_names"]?.arrayValue ?? []).compactMap(\.stringValue)
        var violations: [OutputViolation] = []
        if input.names == nil, names.count == 2, names[0] == names[1] {
            violations.append(OutputViolation(path: "$.character_names[1]", reason: "must differ from the first name"))
        }
        let characters = zip(Self.speakers, names).map { speaker, name in ChatCharacter(id: speaker.id, name: name, color: speaker.color) }
        let messages = (answer["messages"]?.arrayValue ?? []).map { message in
            let label = message["speaker"]?.stringValue
            return ChatMessageLine(
                character: Self.speakers.first { $0.label == label }?.id ?? "", text: message["text"]?.stringValue ?? "")
        }
        for speaker in Self.speakers where !messages.contains(where: { $0.character == speaker.id }) {
            violations.append(OutputViolation(path: "$.messages", reason: "has no message from \(speaker.label); both characters must speak"))
        }
        let conversation = ChatConversation(title: answer["title"]?.stringValue, characters: characters, messages: messages)
        do {
            try ChatExportInput(conversation: conversation).validate()
        } catch let error as InputError {
            violations.append(OutputViolation(path: Self.answerPath(of: error.field), reason: error.reason))
        } catch {
            violations.append(OutputViolation(path: "$", reason: "is not a conversation a video can be made of"))
        }
        guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
        return .success(GeneratedChat(conversation: conversation, messageCount: messages.count))
    }

    /// Where in the model's answer a field of the conversation made from it came from.
    private static func answerPath(of field: String) -> String {
        field.replacingOccurrences(of: "input.conversation.characters", with: "$.character_names")
            .replacingOccurrences(of: "].name", with: "]")
            .replacingOccurrences(of: "input.conversation", with: "$")
    }
}
