import JobVocabulary

/// WorldArchitect's campaign as the app exports it: the title, the scenes of its history ("Scene #X" in the app), and
/// the game state whose player character becomes the character sheet. Pictures are upload ids of PNG or JPEG images.
public struct CampaignSummary: Codable, Sendable, Equatable {
    public struct Scene: Codable, Sendable, Equatable {
        /// The scene's number in the campaign; its place in `scenes` (from 1) when absent.
        public let number: Int?
        /// Shown after "Scene #X: " when given.
        public let title: String?
        /// Paragraphs are separated by blank lines.
        public let text: String
        public let image: String?
        /// What `image` shows, for a reader who cannot see it: the picture's alternative text in every format ("Illustration
        /// for" the scene's heading when absent). Ignored without an image.
        public let imageDescription: String?

        enum CodingKeys: String, CodingKey {
            case number, title, text, image
            case imageDescription = "image_description"
        }

        public init(number: Int? = nil, title: String? = nil, text: String, image: String? = nil) {
            self.init(number: number, title: title, text: text, image: image, imageDescription: nil)
        }

        public init(number: Int? = nil, title: String? = nil, text: String, image: String?, imageDescription: String?) {
            self.number = number
            self.title = title
            self.text = text
            self.image = image
            self.imageDescription = imageDescription
        }
    }

    public let title: String
    /// A line under the title ("A campaign in the Sword Coast").
    public let subtitle: String?
    /// The player's name, shown as the author.
    public let player: String?
    public let scenes: [Scene]
    /// The state at the end of the exported history: the character sheet and the people met.
    public let state: CampaignState?

    public static let maxScenes = 5_000
    public static let maxSceneCharacters = 20_000
    public static let maxImages = 50

    public init(title: String, subtitle: String? = nil, player: String? = nil, scenes: [Scene], state: CampaignState? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.player = player
        self.scenes = scenes
        self.state = state
    }

    /// Checks every field, naming the first one out of range under `field` ("input.campaign").
    package func validate(field: String) throws {
        try InputError.checkLength(title, field: "\(field).title", maximum: 200)
        try InputError.checkLength(subtitle, field: "\(field).subtitle", maximum: 300)
        try InputError.checkLength(player, field: "\(field).player", maximum: 200)
        guard (1...Self.maxScenes).contains(scenes.count) else {
            throw InputError(field: "\(field).scenes", reason: "must hold 1–\(Self.maxScenes) scenes")
        }
        for (index, scene) in scenes.enumerated() {
            let sceneField = "\(field).scenes[\(index)]"
            if let number = scene.number, number < 1 { throw InputError(field: "\(sceneField).number", reason: "must be 1 or more") }
            try InputError.checkLength(scene.title, field: "\(sceneField).title", maximum: 200)
            try InputError.checkLength(scene.text, field: "\(sceneField).text", maximum: Self.maxSceneCharacters)
            try UploadReference.validate(scene.image, field: "\(sceneField).image")
            try InputError.checkLength(
                scene.imageDescription, field: "\(sceneField).image_description", maximum: UploadReference.maxDescriptionCharacters)
        }
        guard scenes.compactMap(\.image).count <= Self.maxImages else {
            throw InputError(field: "\(field).scenes", reason: "may hold at most \(Self.maxImages) pictures")
        }
    }
}
