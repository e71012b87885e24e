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

    /// iMessage's details in one conversation: a link in a message and a message that is one, a word too long for a
    /// line, emoji typed among words, a message long enough to grow the field to several lines, and the receipt moving
    /// from one of the owner's messages to the next.
    static func details(_ configure: (inout ChatExportSettings) -> Void = { _ in }) -> ChatExportInput {
        with(
            messages: [
                ("sam", "are you coming? it's at luma.com/rooftop-party"),
                ("me", "Yes! bringing the supercalifragilisticexpialidocious-level snacks 🍰🎉"),
                ("sam", "https://www.youtube.com/watch?v=rooftop"),
                ("me", "Perfect, see you there around nine then, I'll text you when I'm outside the building with the snacks"),
            ], configure)
    }

    /// The phone's owner and three friends, in runs of one sender: three from Ana (the last over two lines), one from
    /// Ben, two from the owner, two from Cy.
    static func group(_ configure: (inout ChatExportSettings) -> Void = { _ in }) -> ChatExportInput {
        var settings = ChatExportSettings()
        configure(&settings)
        let me = characters[0]
        let members = [
            ChatCharacter(id: "ana", name: "Ana", color: "#FF9500", side: .left, avatar: nil),
            ChatCharacter(id: "ben", name: "Ben", color: "#AF52DE", side: .left, avatar: nil),
            ChatCharacter(id: "cy", name: "Cy", color: "#34C759", side: .left, avatar: "🦊"),
        ]
        return ChatExportInput(
            conversation: ChatConversation(
                title: "Flat 4B", characters: [me] + members,
                messages: [
                    ChatMessageLine(character: "ana", text: "who ate my leftovers"),
                    ChatMessageLine(character: "ana", text: "be honest"),
                    ChatMessageLine(character: "ana", text: "I labelled them. With my name. In capitals."),
                    ChatMessageLine(character: "ben", text: "not me, I was at the gym all evening"),
                    ChatMessageLine(character: "me", text: "wasn't me either 👀"),
                    ChatMessageLine(character: "me", text: "check Cy's desk"),
                    ChatMessageLine(character: "cy", text: "…ok it was me"),
                    ChatMessageLine(character: "cy", text: "they were really good though"),
                ]),
            settings: settings)
    }
}
