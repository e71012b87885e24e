import Foundation

/// The times a subscription webhook may carry: from 2000 to the end of 9999. No store sends anything else, and a time
/// far enough out would not fit PostgreSQL's timestamps, or would trap on its way there.
enum WebhookTime {
    static let plausible = Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// RevenueCat's milliseconds since 1970, decoded only when plausible (else the webhook is a 400 `invalid_webhook`).
    struct Milliseconds: Decodable {
        let date: Date

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let date = Date(timeIntervalSince1970: Double(try container.decode(Int64.self)) / 1000)
            guard WebhookTime.plausible.contains(date) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a time a store sends")
            }
            self.date = date
        }
    }
}
