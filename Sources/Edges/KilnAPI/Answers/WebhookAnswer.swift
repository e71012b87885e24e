/// `200` of the subscription webhooks (the `WebhookOutcome` schema): the event was `applied` (with the tier it set),
/// was a `duplicate` of one applied before, or was `ignored` as changing no entitlement. The platforms retry anything
/// else.
struct WebhookAnswer: Encodable {
    let status: String
    /// Present only when applied.
    let tier: String?

    static let ignored = WebhookAnswer(status: "ignored", tier: nil)
    static let duplicate = WebhookAnswer(status: "duplicate", tier: nil)
    static func applied(tier: String) -> WebhookAnswer { WebhookAnswer(status: "applied", tier: tier) }
}
