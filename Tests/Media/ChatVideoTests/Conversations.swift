import ChatTaleInputs

/// Conversations the tests export.
enum Conversations {
    static let characters = [
        ChatCharacter(id: "me", name: "Me", color: "#0A84FF", side: .right, avatar: "😎"),
        ChatCharacter(id: "sam", name: "Sam", color: "#34C759", side: .left, avatar: "🦊"),
    ]

    /// Three short messages, one of them emoji with a skin tone and a ZWJ family.
    static func short(_ configure: (inout ChatExportSettings) -> Void = { _ in }) -> ChatExportInput {
        var settings = ChatExportSettings()
        configure(&settings)
        return ChatExportInput(
            conversation: ChatConversation(
                characters: characters,
                messages: [
                    ChatMessageLine(character: "sam", text: "Are you coming tonight?"),
                    ChatMessageLine(character: "me", text: "Yes! 👍🏽👨‍👩‍👧"),
                    ChatMessageLine(character: "sam", text: "Café at 8 — « bring snacks »"),
                ]),
            settings: settings)
    }

    /// `messages` as (character, text) pairs between "me" and "sam".
    static func with(messages: [(String, String)], _ configure: (inout ChatExportSettings) -> Void = { _ in }) -> ChatExportInput {
        var settings = ChatExportSettings()
        configure(&settings)
        return ChatExportInput(
            conversation: ChatConversation(characters: characters, messages: messages.map { ChatMessageLine(character: $0, text: $1) }),
            settings: settings)
    }
}
