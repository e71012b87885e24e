import Foundation
import KilnCore

/// The answers of `/v1/partners`, one type per route (the `PartnerInvitation`, `PartnerRedemption`, `PartnerAccepted`,
/// `PartnerLink` and `PartnerUnlinked` schemas).
enum PartnerAnswers {
    /// `201` of `POST /v1/partners/invitations`: the code to share, and until when it can be redeemed.
    struct Invitation: Encodable {
        let code: String
        let expiresAt: String

        init(code: String, expiresAt: Date) {
            self.code = code
            self.expiresAt = expiresAt.formatted(Date.ISO8601FormatStyle())
        }

        enum CodingKeys: String, CodingKey {
            case code
            case expiresAt = "expires_at"
        }
    }

    /// `202` of `POST /v1/partners/invitations/{code}/redeem`: the inviter may now accept.
    struct Redemption: Encodable {
        let status = "redeemed"
    }

    /// `201` of `POST /v1/partners/invitations/{code}/accept`: who the inviter is now linked with.
    struct Accepted: Encodable {
        let partner: Identity
    }

    /// `200` of `GET /v1/partners`.
    struct Link: Encodable {
        let partner: Identity
        let linkedAt: String

        init(partner: Identity, linkedAt: Date) {
            self.partner = partner
            self.linkedAt = linkedAt.formatted(Date.ISO8601FormatStyle())
        }

        enum CodingKeys: String, CodingKey {
            case partner
            case linkedAt = "linked_at"
        }
    }

    /// `200` of `DELETE /v1/partners`: the former partner.
    struct Unlinked: Encodable {
        let unlinked: Identity
    }
}
