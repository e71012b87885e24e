public import KilnProviders

/// A worker's routes to its providers, built once from the provider file: the text and image routers its handlers
/// call, and the readings of their circuits, parks and slots its heartbeat carries.
public struct ProviderRoutes: Sendable {
    public let configuration: ProviderConfiguration
    public let text: TextRouting
    public let images: ImageRouting
    public let readings: ProviderReadings
}
