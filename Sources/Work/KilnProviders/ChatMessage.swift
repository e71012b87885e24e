/// One turn of a conversation sent to a text model.
public struct ChatMessage: Sendable, Equatable {
    /// Who spoke. System instructions travel in ``TextGenerationRequest/system``, as every provider wants them apart.
    public enum Role: String, Sendable {
        case user
        case assistant
    }

    /// A piece of a message: text, or an image the model should look at.
    public enum Part: Sendable, Equatable {
        case text(String)
        /// An image's bytes and media type (`image/png`, `image/jpeg`, `image/gif`, `image/webp`).
        case image(mediaType: String, data: [UInt8])
    }

    public var role: Role
    public var parts: [Part]

    /// Creates a message from its parts.
    public init(role: Role, parts: [Part]) {
        self.role = role
        self.parts = parts
    }

    /// A message of text alone.
    public static func user(_ text: String) -> ChatMessage {
        ChatMessage(role: .user, parts: [.text(text)])
    }

    /// What the model said before, for a conversation that goes on.
    public static func assistant(_ text: String) -> ChatMessage {
        ChatMessage(role: .assistant, parts: [.text(text)])
    }
}
