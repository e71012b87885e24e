/// One step of a route: a provider and the model to ask there, since each provider names its models its own way.
public struct RoutedModel: Sendable {
    public let provider: any TextProvider
    public let model: String
    /// The most calls to this provider and model in flight at once across the fleet; `nil` for no cap.
    public let maxConcurrent: Int?

    public init(provider: any TextProvider, model: String, maxConcurrent: Int? = nil) {
        self.provider = provider
        self.model = model
        self.maxConcurrent = maxConcurrent
    }
}
