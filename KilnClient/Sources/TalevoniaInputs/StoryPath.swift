import JobVocabulary

/// Talevonia's reading path, as the app sends it to export, make a share card or publish: the story's title, and the
/// nodes from the root to the one the reader chose, each with its text and perhaps an illustration. Pictures are
/// upload ids (`POST /v1/uploads`) of the caller's own PNG or JPEG images.
public struct StoryPath: Codable, Sendable, Equatable {
    public struct Node: Codable, Sendable, Equatable {
        /// Shown as the node's heading; the reader shows "Part N" when there is none.
        public let title: String?
        public let text: String
        public let image: String?
        /// What `image` shows, for a reader who cannot see it: the picture's alternative text in every format ("Illustration
        /// for" the node's heading when absent). Ignored without an image.
        public let imageDescription: String?

        enum CodingKeys: String, CodingKey {
            case title, text, image
            case imageDescription = "image_description"
        }

        public init(title: String? = nil, text: String, image: String? = nil) {
            self.init(title: title, text: text, image: image, imageDescription: nil)
        }

        public init(title: String? = nil, text: String, image: String?, imageDescription: String?) {
            self.title = title
            self.text = text
            self.image = image
            self.imageDescription = imageDescription
        }
    }

    public let title: String
    public let author: String?
    /// BCP 47 tag of the text; "en" when absent.
    public let language: String?
    public let cover: String?
    public let nodes: [Node]

    public static let maxNodes = 500
    public static let maxImages = 50

    public init(title: String, author: String? = nil, language: String? = nil, cover: String? = nil, nodes: [Node]) {
        self.title = title
        self.author = author
        self.language = language
        self.cover = cover
        self.nodes = nodes
    }

    /// The cover first, then the nodes' pictures in order.
    public var imageIDs: [String] { [cover].compactMap { $0 } + nodes.compactMap(\.image) }

    /// Checks every field, naming the first one out of range under `field` ("input.story").
    package func validate(field: String) throws {
        try InputError.checkLength(title, field: "\(field).title", maximum: StoryTextLimits.title)
        try InputError.checkLength(author, field: "\(field).author", maximum: 200)
        try DocumentLanguage.validate(language, field: "\(field).language")
        guard (1...Self.maxNodes).contains(nodes.count) else {
            throw InputError(field: "\(field).nodes", reason: "must hold 1–\(Self.maxNodes) nodes")
        }
        for (index, node) in nodes.enumerated() {
            try InputError.checkLength(node.title, field: "\(field).nodes[\(index)].title", maximum: StoryTextLimits.title)
            try InputError.checkLength(node.text, field: "\(field).nodes[\(index)].text", maximum: StoryTextLimits.nodeText)
            try InputError.checkLength(
                node.imageDescription, field: "\(field).nodes[\(index)].image_description", maximum: UploadReference.maxDescriptionCharacters)
        }
        try UploadReference.validate(cover, field: "\(field).cover")
        for (index, node) in nodes.enumerated() { try UploadReference.validate(node.image, field: "\(field).nodes[\(index)].image") }
        guard imageIDs.count <= Self.maxImages else {
            throw InputError(field: "\(field).nodes", reason: "may hold at most \(Self.maxImages) pictures with the cover")
        }
    }
}
