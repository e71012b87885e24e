/// Where one message is drawn in a frame and which of its run's marks it shows (``ChatRenderer/layout(_:)``): the
/// layout a picture is drawn from, for measuring how messages are grouped.
public struct ChatMessagePlacement: Equatable, Sendable {
    public let message: Int
    /// The bubble's (or a Discord row's text's) edges, in pixels of the frame.
    public let top: Int
    public let bottom: Int
    public let left: Int
    public let right: Int
    /// The sender's name heads this message: the first of a run in a group chat.
    public let showsName: Bool
    /// The bubble has its tail: the last of a run on screen (iMessage), the first (WhatsApp).
    public let showsTail: Bool
    /// The sender's picture beside it (group chats), on the bubble with the tail.
    public let showsAvatar: Bool
}
