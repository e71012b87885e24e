public import KilnPolicy
public import KilnProviders
public import KilnStore

/// What a worker gives the handlers it makes: each kind's definition takes what it needs and names what is missing.
public struct HandlerDependencies: Sendable {
    /// The tenants' policies: the tier rules of the image and rendering kinds' output.
    public var policies: PolicySet
    /// The text providers' routes, for the text kinds and `diag.generate`: ``TextRouting`` in a worker.
    public var routing: (any TextRoutes)?
    /// Where provider token usage is recorded, for every kind that calls a provider: ``ProviderUsageStore`` in a worker.
    public var usage: (any ProviderUsageRecording)?
    /// The moderation model judging inputs and answers; nil runs without one.
    public var safety: ContentSafety?
    /// The image providers' routes, for the image kinds.
    public var images: ImageRouting?
    /// Uploaded pictures and documents, for the kinds that read them.
    public var uploads: UploadStore?
    /// Published pages, for `share.publish`.
    public var shares: ShareStore?
    /// Where the API is reached from the internet: published pages' addresses start with it.
    public var publicURL: String?

    public init(
        policies: PolicySet = .none, routing: (any TextRoutes)? = nil, usage: (any ProviderUsageRecording)? = nil, safety: ContentSafety? = nil,
        images: ImageRouting? = nil, uploads: UploadStore? = nil, shares: ShareStore? = nil, publicURL: String? = nil
    ) {
        self.policies = policies
        self.routing = routing
        self.usage = usage
        self.safety = safety
        self.images = images
        self.uploads = uploads
        self.shares = shares
        self.publicURL = publicURL
    }

    /// `value`, or the error naming it as missing.
    func required<Value>(_ value: Value?, _ name: String) throws(MissingDependency) -> Value {
        guard let value else { throw MissingDependency(description: "needs \(name)") }
        return value
    }

    /// The text model caller the text kinds share.
    func textGenerator() throws(MissingDependency) -> TextGenerator {
        TextGenerator(routing: try required(routing, "text routes"), usage: try required(usage, "a provider usage store"), safety: safety)
    }
}
