import Foundation
import Hummingbird
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue

/// Quotas: one identity looked up — its tier as on record, each quota class's use, holds and what remains today, its
/// devices today (each with its block, if an operator blocked it), its unfinished jobs' reservations and its block.
struct IdentityRoutes {
    let dependencies: ConsoleDependencies
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/identities", use: lookUp)
    }

    struct ClassLine {
        let quotaClass: String
        let limit: String
        let used: Int
        let reserved: Int
        let remaining: String
    }

    struct ReservationLine {
        let job: String
        let quotaClass: String
        let units: Int
        let lapses: String
    }

    struct DeviceLine {
        let device: String
        /// Its block's reason and how long it lasts, when it is blocked.
        let block: String?
    }

    struct Found {
        let tenant: String
        let identity: String
        let subject: String
        let tier: String
        let day: String
        let classes: [ClassLine]
        let devices: [DeviceLine]
        let reservations: [ReservationLine]
        let block: String?
        let unmetered: Bool
    }

    struct Model {
        let tenant: String
        let identity: String
        let found: Found?
    }

    @Sendable func lookUp(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let tenantText = ConsoleInput.query(request, "tenant")
        let identityText = ConsoleInput.query(request, "identity")
        var found: Found?
        if let tenant = try ConsoleInput.tenant(tenantText), !identityText.isEmpty {
            try session.require(tenant, "tenant \(tenant)")
            guard let identity = Identity(validating: identityText) else { throw ConsoleRefusal(.badRequest, "identity: not a valid identity") }
            found = try await look(tenant: tenant, identity: identity)
        }
        return renderer.page(
            "identities", title: "Quotas", model: Model(tenant: tenantText, identity: identityText, found: found), session: session,
            request: request)
    }

    private func look(tenant: TenantID, identity: Identity) async throws -> Found {
        let now = dependencies.clock()
        guard let policy = dependencies.policies[tenant] else {
            return Found(
                tenant: tenant.rawValue, identity: identity.rawValue, subject: identity.rawValue, tier: "—", day: "—", classes: [], devices: [],
                reservations: [], block: nil, unmetered: true)
        }
        let applicant = Applicant(tenant: tenant, identity: identity)
        let standing = try await dependencies.standings.standing(of: applicant, at: now)
        let tier = Admission(policies: dependencies.policies).tier(of: applicant, standing: standing, in: policy, at: now)
        let day = policy.dayWindow(containing: now)
        let subject = standing?.subject ?? identity.rawValue
        let limits = Dictionary(uniqueKeysWithValues: tier.daily.map { ($0.key.rawValue, $0.value.units) })
        let quota = dependencies.namespace.quota
        let (usage, _) = try await quota.usage(tenant: tenant, subject: subject, day: day.label, limits: limits)
        let held = try await quota.inspect(tenant: tenant, subject: subject, day: day.label)
        return Found(
            tenant: tenant.rawValue, identity: identity.rawValue, subject: subject, tier: tier.name, day: day.label,
            classes: usage.sorted { $0.key < $1.key }.map { name, use in
                ClassLine(
                    quotaClass: name, limit: use.limit.map(String.init) ?? "unlimited", used: use.used, reserved: use.pending,
                    remaining: use.remaining.map(String.init) ?? "unlimited")
            },
            devices: held.devices.map { device in
                DeviceLine(device: device, block: held.deviceBlocks.first { $0.subject == device }.map(Self.describe))
            },
            reservations: held.reservations.map {
                ReservationLine(
                    job: $0.job, quotaClass: $0.quotaClass, units: $0.units,
                    lapses: Formatting.time(milliseconds: $0.expiresAtMilliseconds))
            }, block: held.block.map(Self.describe), unmetered: false)
    }

    /// A block's reason and how long it still lasts.
    static func describe(_ block: AbuseBlock) -> String {
        "\(block.reason), for \(Formatting.wait(milliseconds: block.remaining.milliseconds))"
    }
}
