public import JobVocabulary

/// `chat.generate`: ChatTale's AI story — a prompt, genre, mood and length → a conversation between two characters
/// that `video.chat_export` takes unchanged.
public struct ChatGenerateInput: KindInput, Equatable {
    public enum Genre: String, Codable, Sendable, InputChoice {
        case drama, comedy, romance, horror, mystery
    }

    public enum Mood: String, Codable, Sendable, InputChoice {
        case funny, dramatic, scary, romantic
    }

    /// How many messages, as the app's length picker offers them.
    public enum Length: String, Codable, Sendable, InputChoice {
        case short, medium, long

        public var messages: ClosedRange<Int> {
            switch self {
            case .short: 5...10
            case .medium: 10...20
            case .long: 20...30
            }
        }
    }

    public var prompt: String
    public var genre: Genre
    public var mood: Mood
    public var length: Length
    /// The two characters' names, the phone's owner first; the model names them when absent.
    public var names: [String]?

    public init(prompt: String, genre: Genre, mood: Mood, length: Length, names: [String]? = nil) {
        self.prompt = prompt
        self.genre = genre
        self.mood = mood
        self.length = length
        self.names = names
    }

    public static let maxPromptLength = 1000

    public func validate() throws {
        guard !prompt.isEmpty, prompt.count <= Self.maxPromptLength else {
            throw InputError(field: "input.prompt", reason: "must be 1–\(Self.maxPromptLength) characters long")
        }
        guard let names else { return }
        guard names.count == 2 else { throw InputError(field: "input.names", reason: "must hold exactly two names, the phone's owner first") }
        for (index, name) in names.enumerated() where !(1...40).contains(name.count) {
            throw InputError(field: "input.names[\(index)]", reason: "must be 1–40 characters long")
        }
        guard names[0] != names[1] else { throw InputError(field: "input.names[1]", reason: "must differ from the first name") }
    }
}
