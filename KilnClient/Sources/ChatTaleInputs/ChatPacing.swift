/// How long each step of a chat video lasts, in ticks of `1/fps` seconds: the "…" indicator before a message, each
/// typed character (grapheme cluster), the hold after the send, and the still ends of the video.
///
/// The video opens on the conversation's first message already in place, so that its first frame (the thumbnail a
/// platform shows) is a conversation and not an empty chat; every later message takes its "…", its typing and its
/// hold. The other side's "…" and typing together last at most ``replyLimitTicks``, so a long message from them
/// never holds the video still for long.
public struct ChatPacing: Sendable, Equatable {
    public let fps: Int
    /// 0 when the typing indicator is off.
    public let indicatorTicks: Int
    public let ticksPerCharacter: Int
    /// The pause after a message: ten times a character's.
    public let holdTicks: Int
    /// The first message, already sent, before its hold: the opening of the video.
    public let leadInTicks: Int
    /// The finished chat shown after the last message.
    public let endTicks: Int
    /// The longest the other side takes from their "…" to their send (``ChatTypingSpeed/replyLimitSeconds``).
    public let replyLimitTicks: Int

    public init(_ settings: ChatExportSettings) {
        let fps = settings.fps
        let perCharacter = settings.typingSpeed.secondsPerCharacter * Double(fps)
        self.fps = fps
        indicatorTicks = settings.typingIndicator ? fps : 0
        ticksPerCharacter = max(1, Int(perCharacter.rounded()))
        holdTicks = max(1, Int((perCharacter * 10).rounded()))
        leadInTicks = fps / 2
        endTicks = fps
        replyLimitTicks = Int((settings.typingSpeed.replyLimitSeconds * Double(fps)).rounded())
    }

    /// Ticks `message` takes to type after its "…": a grapheme cluster per ``ticksPerCharacter``, except that the other
    /// side's typing is cut short so that their "…" and typing fit in ``replyLimitTicks``.
    public func typingTicks(of message: ChatMessageLine, side: ChatSide) -> Int {
        let natural = message.text.count * ticksPerCharacter
        switch side {
        case .right: return natural
        case .left: return min(natural, max(ticksPerCharacter, replyLimitTicks - indicatorTicks))
        }
    }

    /// Ticks `message` would take from its "…" to the end of its hold were it typed at full length, as every message
    /// was before the other side's typing was capped: at least what it takes now. Deprecated within 1.x (CHANGELOG):
    /// ``ticks(of:side:)`` is what it takes.
    public func ticks(of message: ChatMessageLine) -> Int {
        indicatorTicks + message.text.count * ticksPerCharacter + holdTicks
    }

    /// The length in ticks a video of `messages` would have with each typed at full length, the first one included:
    /// at least its length now. Deprecated within 1.x (CHANGELOG): ``totalTicks(of:sides:)`` is the length.
    public func totalTicks(of messages: [ChatMessageLine]) -> Int {
        leadInTicks + messages.reduce(0) { $0 + ticks(of: $1) } + endTicks
    }

    /// Ticks a message after the first takes, from its "…" to the end of its hold.
    public func ticks(of message: ChatMessageLine, side: ChatSide) -> Int {
        indicatorTicks + typingTicks(of: message, side: side) + holdTicks
    }

    /// The video's length in ticks, which is its frame count at a constant frame rate: the first message shown for the
    /// lead-in and its hold, each later message's ``ticks(of:side:)``, and the end.
    public func totalTicks(of conversation: ChatConversation, sides: [String: ChatSide]) -> Int {
        let later = conversation.messages.dropFirst().reduce(0) { $0 + ticks(of: $1, side: sides[$1.character] ?? .left) }
        return leadInTicks + holdTicks + later + endTicks
    }
}
