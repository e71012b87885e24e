public import JobVocabulary

/// `video.chat_export`: ChatTale's conversation and export settings, rendered by a worker into a live-typing MP4.
public struct ChatExportInput: KindInput, Equatable {
    public var conversation: ChatConversation
    public var settings: ChatExportSettings

    public init(conversation: ChatConversation, settings: ChatExportSettings = ChatExportSettings()) {
        self.conversation = conversation
        self.settings = settings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        conversation = try container.decode(ChatConversation.self, forKey: .conversation)
        settings = try container.decodeIfPresent(ChatExportSettings.self, forKey: .settings) ?? ChatExportSettings()
    }

    enum CodingKeys: String, CodingKey { case conversation, settings }

    /// The longest message, in characters as a reader counts them (grapheme clusters).
    public static let maxMessageLength = 1000
    public static let maxMessages = 300
    public static let maxCharacters = 8
    /// The longest video an export may make.
    public static let maxDurationSeconds = 900.0

    public func validate() throws {
        let characters = conversation.characters
        guard !characters.isEmpty, characters.count <= Self.maxCharacters else {
            throw InputError(field: "input.conversation.characters", reason: "must hold between 1 and \(Self.maxCharacters) characters")
        }
        var ids = Set<String>()
        for (index, character) in characters.enumerated() {
            let field = "input.conversation.characters[\(index)]"
            guard (1...64).contains(character.id.count) else { throw InputError(field: "\(field).id", reason: "must be 1–64 characters") }
            guard ids.insert(character.id).inserted else { throw InputError(field: "\(field).id", reason: "repeats the id '\(character.id)'") }
            guard (1...40).contains(character.name.count) else { throw InputError(field: "\(field).name", reason: "must be 1–40 characters") }
            guard ChatColor(hex: character.color) != nil else {
                throw InputError(field: "\(field).color", reason: "must be a colour written #RRGGBB")
            }
            if let avatar = character.avatar, !(1...2).contains(avatar.count) {
                throw InputError(field: "\(field).avatar", reason: "must be one emoji or up to two letters")
            }
        }
        let messages = conversation.messages
        guard !messages.isEmpty, messages.count <= Self.maxMessages else {
            throw InputError(field: "input.conversation.messages", reason: "must hold between 1 and \(Self.maxMessages) messages")
        }
        for (index, message) in messages.enumerated() {
            let field = "input.conversation.messages[\(index)]"
            guard ids.contains(message.character) else {
                throw InputError(field: "\(field).character", reason: "names no character of the conversation: '\(message.character)'")
            }
            guard !message.text.isEmpty, message.text.count <= Self.maxMessageLength else {
                throw InputError(field: "\(field).text", reason: "must be 1–\(Self.maxMessageLength) characters long, not \(message.text.count)")
            }
        }
        let ticks = ChatPacing(settings).totalTicks(of: conversation, sides: settings.sides(of: characters))
        let seconds = Double(ticks) / Double(settings.fps)
        guard seconds <= Self.maxDurationSeconds else {
            throw InputError(
                field: "input.conversation.messages",
                reason:
                    "make a video of \(Int(seconds)) s; at most \(Int(Self.maxDurationSeconds)) s (fewer or shorter messages, or a faster typing speed)"
            )
        }
    }

    /// ChatTale's free tier: iMessage only, two characters (and a watermark, which the worker adds).
    public var lowestTierRefusal: InputError? {
        if settings.theme != .imessage {
            return InputError(
                field: "input.settings.theme", reason: "the \(settings.theme.rawValue) theme is for premium subscribers; the free tier has imessage")
        }
        if conversation.characters.count > 2 {
            return InputError(
                field: "input.conversation.characters",
                reason: "the free tier makes videos of two characters; \(conversation.characters.count) need premium")
        }
        return nil
    }
}

/// Who speaks and what they say, in order.
public struct ChatConversation: Codable, Sendable, Equatable {
    /// Shown in the header when there are more than two characters (a group chat); optional.
    public var title: String?
    public var characters: [ChatCharacter]
    public var messages: [ChatMessageLine]

    public init(title: String? = nil, characters: [ChatCharacter], messages: [ChatMessageLine]) {
        self.title = title
        self.characters = characters
        self.messages = messages
    }
}

public struct ChatCharacter: Codable, Sendable, Equatable {
    /// What messages call this character by.
    public var id: String
    public var name: String
    /// `#RRGGBB`, used for the avatar circle and for names in group chats.
    public var color: String
    /// `right` is the phone's owner ("me"); `left` everyone else. Default: the first character is on the right.
    public var side: ChatSide?
    /// One emoji (or initials) for the avatar; default the name's initial.
    public var avatar: String?

    public init(id: String, name: String, color: String, side: ChatSide? = nil, avatar: String? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.side = side
        self.avatar = avatar
    }
}

public enum ChatSide: String, Codable, Sendable, InputChoice {
    case left, right
}

public struct ChatMessageLine: Codable, Sendable, Equatable {
    /// The ``ChatCharacter/id`` of who sends it.
    public var character: String
    public var text: String

    public init(character: String, text: String) {
        self.character = character
        self.text = text
    }
}

/// The export settings of ChatTale's `ExportSettings`, with the seed's defaults.
public struct ChatExportSettings: Codable, Sendable, Equatable {
    public var format: ChatVideoFormat = .portrait
    public var typingSpeed: ChatTypingSpeed = .normal
    public var typingIndicator = true
    /// Where the sender's words appear as they are typed: in the bubble (the seed's look) or in the input field.
    public var typingStyle: ChatTypingStyle = .bubble
    /// The keyboard under the input bar; by default on at 9:16 and 1:1, off at 16:9 (decoding sets it by the format).
    public var keyboard = true
    public var sounds = true
    public var darkMode = false
    public var theme: ChatTheme = .imessage
    public var fps = 60
    public var frameRate: ChatFrameRate = .constant

    public init() {}

    enum CodingKeys: String, CodingKey {
        case format, sounds, keyboard, theme, fps
        case typingSpeed = "typing_speed"
        case typingIndicator = "typing_indicator"
        case typingStyle = "typing_style"
        case darkMode = "dark_mode"
        case frameRate = "frame_rate"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(ChatVideoFormat.self, forKey: .format) ?? format
        typingSpeed = try container.decodeIfPresent(ChatTypingSpeed.self, forKey: .typingSpeed) ?? typingSpeed
        typingIndicator = try container.decodeIfPresent(Bool.self, forKey: .typingIndicator) ?? typingIndicator
        typingStyle = try container.decodeIfPresent(ChatTypingStyle.self, forKey: .typingStyle) ?? typingStyle
        // 16:9 is laid out for landscape screens, where a keyboard would take a third of the height: off unless asked for.
        keyboard = try container.decodeIfPresent(Bool.self, forKey: .keyboard) ?? (format != .landscape)
        sounds = try container.decodeIfPresent(Bool.self, forKey: .sounds) ?? sounds
        darkMode = try container.decodeIfPresent(Bool.self, forKey: .darkMode) ?? darkMode
        theme = try container.decodeIfPresent(ChatTheme.self, forKey: .theme) ?? theme
        fps = try container.decodeIfPresent(FramesPerSecond.self, forKey: .fps)?.rawValue ?? fps
        frameRate = try container.decodeIfPresent(ChatFrameRate.self, forKey: .frameRate) ?? frameRate
    }

    /// The frame rates a video is made at, read as a choice so that the API's schema of the input lists them.
    private enum FramesPerSecond: Int, CaseIterable, Decodable {
        case thirty = 30
        case sixty = 60

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            guard let value = Self(rawValue: try container.decode(Int.self)) else {
                let accepted = Self.allCases.map { String($0.rawValue) }.joined(separator: " or ")
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be \(accepted)")
            }
            self = value
        }
    }

    /// Each character's side: as given, else the first character on the right and the others on the left.
    public func sides(of characters: [ChatCharacter]) -> [String: ChatSide] {
        Dictionary(
            characters.enumerated().map { index, character in (character.id, character.side ?? (index == 0 ? .right : .left)) },
            uniquingKeysWith: { first, _ in first })
    }
}

/// The seed's three formats, by aspect ratio.
public enum ChatVideoFormat: String, Codable, Sendable, InputChoice {
    /// 1080×1920, TikTok, Reels, Shorts.
    case portrait = "9:16"
    /// 1080×1080, Instagram.
    case square = "1:1"
    /// 1920×1080, YouTube, televisions and computers: laid out for a landscape screen, without the keyboard by default.
    case landscape = "16:9"

    public var size: (width: Int, height: Int) {
        switch self {
        case .portrait: (1080, 1920)
        case .square: (1080, 1080)
        case .landscape: (1920, 1080)
        }
    }
}

/// Seconds per typed character; the pause after a message is ten times that, and the other side's "…" and typing
/// together last at most ``replyLimitSeconds``.
public enum ChatTypingSpeed: String, Codable, Sendable, InputChoice {
    case slow, normal, fast

    public var secondsPerCharacter: Double {
        switch self {
        case .slow: 0.08
        case .normal: 0.05
        case .fast: 0.02
        }
    }

    /// The longest the other side takes from their "…" to their send: about what a reader waits for a reply in the
    /// apps. A longer message from them types faster (or, in the field style, their "…" stops sooner), so it never
    /// holds the video still for long.
    public var replyLimitSeconds: Double {
        switch self {
        case .slow: 3
        case .normal: 2.5
        case .fast: 2
        }
    }
}

/// How a message is typed out. `bubble`: the seed's look, every message typed into its own bubble with a cursor.
/// `field`: as on an iPhone, the sender's words appear in the input field (the send button lit once it holds text) and the
/// message joins the conversation when sent, while the other side's messages show the "…" for as long as they are typed
/// (at most ``ChatTypingSpeed/replyLimitSeconds``). Both take the same time, so a video's length does not depend on it.
public enum ChatTypingStyle: String, Codable, Sendable, InputChoice {
    case bubble, field
}

public enum ChatTheme: String, Codable, Sendable, InputChoice {
    case imessage, whatsapp, messenger, discord
}

/// Constant frame rate (every frame encoded; what every player and editor accepts) or variable (only the frames that
/// change, each shown as long as it lasts; smaller and faster to make).
public enum ChatFrameRate: String, Codable, Sendable, InputChoice {
    case constant, variable
}
