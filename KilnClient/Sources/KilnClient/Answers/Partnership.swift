/// The answers of `/v1/partners` (Veramo's couples, who share one entitlement and one quota pool).
public enum Partnership {
    /// A code to give one's partner, redeemable until ``expiresAt`` (the `PartnerInvitation` schema).
    public struct Invitation: Decodable, Sendable, Equatable {
        public let code: String
        /// ISO 8601.
        public let expiresAt: String

        enum CodingKeys: String, CodingKey {
            case code
            case expiresAt = "expires_at"
        }
    }

    /// Who the caller is linked with, and since when (the `PartnerLink` schema).
    public struct Link: Decodable, Sendable, Equatable {
        /// The partner's identity.
        public let partner: String
        /// ISO 8601.
        public let linkedAt: String

        enum CodingKeys: String, CodingKey {
            case partner
            case linkedAt = "linked_at"
        }
    }

    /// `PartnerRedemption`.
    struct Redemption: Decodable {
        let status: String
    }

    /// `PartnerAccepted`.
    struct Accepted: Decodable {
        let partner: String
    }

    /// `PartnerUnlinked`.
    struct Unlinked: Decodable {
        let unlinked: String
    }
}
