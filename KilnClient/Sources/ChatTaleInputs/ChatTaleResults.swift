/// The result of `chat.generate`: a conversation `video.chat_export` takes as it is. The worker writes it and the client
/// reads it as this type.
public struct GeneratedChat: Codable, Sendable, Equatable {
    public let conversation: ChatConversation
    public let messageCount: Int

    public init(conversation: ChatConversation, messageCount: Int) {
        self.conversation = conversation
        self.messageCount = messageCount
    }

    enum CodingKeys: String, CodingKey {
        case conversation
        case messageCount = "message_count"
    }
}

/// The result of `video.chat_export`: the video is the artifact ``artifact``. The worker writes it and the client reads
/// it as this type.
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

    public init(
        artifact: String, width: Int, height: Int, fps: Int, frameRate: ChatFrameRate, frames: Int, durationSeconds: Double, bytes: Int,
        watermark: Bool
    ) {
        self.artifact = artifact
        self.width = width
        self.height = height
        self.fps = fps
        self.frameRate = frameRate
        self.frames = frames
        self.durationSeconds = durationSeconds
        self.bytes = bytes
        self.watermark = watermark
    }

    enum CodingKeys: String, CodingKey {
        case artifact, width, height, fps, frames, bytes, watermark
        case frameRate = "frame_rate"
        case durationSeconds = "duration_seconds"
    }
}
