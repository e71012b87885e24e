extension Kiln {
    /// The caller's tier and each quota class's use today.
    public func quota() async throws -> Quota {
        try await call(.quota, as: Quota.self)
    }

    /// A code for one's partner to redeem (Veramo): redeemed and accepted, the two share one entitlement and quota.
    public func invitePartner() async throws -> Partnership.Invitation {
        try await call(.invite, as: Partnership.Invitation.self)
    }

    /// The invitee's step: redeems the code the partner gave.
    public func redeemInvitation(_ code: String) async throws {
        _ = try await call(.redeem, ["code": code], as: Partnership.Redemption.self)
    }

    /// The inviter's step, after the partner redeemed: links the two; returns the partner's identity.
    @discardableResult
    public func acceptInvitation(_ code: String) async throws -> String {
        try await call(.accept, ["code": code], as: Partnership.Accepted.self).partner
    }

    /// Who the caller is linked with; a ``KilnError`` with status 404 when no one.
    public func partner() async throws -> Partnership.Link {
        try await call(.partner, as: Partnership.Link.self)
    }

    /// Ends the link; returns the former partner's identity.
    @discardableResult
    public func unlinkPartner() async throws -> String {
        try await call(.unlink, as: Partnership.Unlinked.self).unlinked
    }

    /// Takes down a page `share.publish` made (its `PublishedShare.slug`): its address answers 410 from now on.
    public func revokeShare(_ slug: String) async throws {
        _ = try await send(.revokeShare, ["slug": slug])
    }

    /// Erases everything Kiln holds of the caller. While its running jobs stop, the server answers `pending` and when to
    /// ask again: the call asks again within the retry budget, and returns the last answer (``Erasure/isComplete``).
    @discardableResult
    public func eraseIdentity() async throws -> Erasure {
        var waited: Duration = .zero
        while true {
            let response = try await send(.erase)
            let erasure = try Self.decode(Erasure.self, from: try await Self.collect(response), route: .erase)
            let wait = Self.retryAfter(response.headers["retry-after"]) ?? RetryPlan.defaultRetryAfter
            guard !erasure.isComplete, waited + wait <= configuration.retryBudget else { return erasure }
            waited += wait
            try await Task.sleep(for: wait)
        }
    }
}
