/// How long each step of a chat video lasts, in ticks of `1/fps` seconds: the "…" indicator before a message, each
/// typed character (grapheme cluster), the hold after the send, and the still ends of the video.
public struct ChatPacing: Sendable, Equatable {
    public let fps: Int
    /// 0 when the typing indicator is off.
    public let indicatorTicks: Int
    public let ticksPerCharacter: Int
    /// The pause after a message: ten times a character's.
    public let holdTicks: Int
    /// The empty chat shown before the first message.
    public let leadInTicks: Int
    /// The finished chat shown after the last message.
    public let endTicks: Int

    public init(_ settings: ChatExportSettings) {
        let fps = settings.fps
        let perCharacter = settings.typingSpeed.secondsPerCharacter * Double(fps)
        self.fps = fps
        indicatorTicks = settings.typingIndicator ? fps : 0
        ticksPerCharacter = max(1, Int(perCharacter.rounded()))
        holdTicks = max(1, Int((perCharacter * 10).rounded()))
        leadInTicks = fps / 2
        endTicks = fps
    }

    /// Ticks one message takes from its indicator to the end of its hold.
    public func ticks(of message: ChatMessageLine) -> Int {
        indicatorTicks + message.text.count * ticksPerCharacter + holdTicks
    }

    /// The video's length in ticks, which is its frame count at a constant frame rate.
    public func totalTicks(of messages: [ChatMessageLine]) -> Int {
        leadInTicks + messages.reduce(0) { $0 + ticks(of: $1) } + endTicks
    }
}
