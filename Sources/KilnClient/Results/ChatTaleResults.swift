public import ChatTaleInputs

/// The result of `chat.generate`: a conversation `video.chat_export` takes as it is.
public struct GeneratedChat: Codable, Sendable, Equatable {
    public let conversation: ChatConversation
    public let messageCount: Int

    enum CodingKeys: String, CodingKey {
        case conversation
        case messageCount = "message_count"
    }
}

/// The result of `video.chat_export`: the video is the artifact ``artifact``.
public struct ExportedChatVideo: Codable, Sendable, Equatable {
    /// `chat.mp4`.
    public let artifact: String
    public let width: Int
    public let height: Int
    public let fps: Int
    public let frameRate: ChatFrameRate
    public let frames: Int
    public let durationSeconds: Double
    public let bytes: Int
    /// The free tier's videos carry one.
    public let watermark: Bool

    enum CodingKeys: String, CodingKey {
        case artifact, width, height, fps, frames, bytes, watermark
        case frameRate = "frame_rate"
        case durationSeconds = "duration_seconds"
    }
}
