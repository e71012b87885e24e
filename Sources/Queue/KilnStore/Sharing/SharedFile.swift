/// A file a published page shows (its share card, a picture), as the page's `name` for it.
public struct SharedFile: Sendable {
    /// A plain file name: "card.png", "cover.jpg", "image-3.png".
    public var name: String
    public var contentType: String
    public var bytes: [UInt8]

    public init(name: String, contentType: String, bytes: [UInt8]) {
        self.name = name
        self.contentType = contentType
        self.bytes = bytes
    }
}
