/// One step of a route: a provider and the model to ask there, since each provider names its models its own way.
public struct RoutedModel: Sendable {
    public let provider: any TextProvider
    public let model: String

    public init(provider: any TextProvider, model: String) {
        self.provider = provider
        self.model = model
    }
}
