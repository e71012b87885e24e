extension Tier {
    /// One entry of a tenant's `tiers`. `kinds` are the tenant's kinds, which `excluded_kinds` must name;
    /// `earlierTiers` are the tenant's tiers read so far: none of them may also be the lowest, or be granted by the same
    /// products or entitlements.
    init(name: String, parsing field: PolicyField, kinds: [String: KindCost], earlierTiers: [Tier]) throws(PolicyError) {
        let object = try field.object(allowing: [
            "lowest", "daily", "device_cooldown_seconds", "running_jobs", "refund_cap", "max_devices_per_day", "products",
            "entitlements", "excluded_kinds",
        ])

        let lowestField = object.optional("lowest")
        let isLowest = try lowestField?.bool() ?? false
        if isLowest, let lowestField, let other = earlierTiers.first(where: \.isLowest) {
            throw lowestField.failure("tier \"\(other.name)\" is already the lowest")
        }

        let dailyField = try object.required("daily")
        var daily: [QuotaClass: DailyLimit] = [:]
        for (key, limit) in try dailyField.entries() {
            daily[try Self.quotaClass(named: key, at: limit)] = try DailyLimit(parsing: limit)
        }

        var deviceCooldowns: [QuotaClass: Duration] = [:]
        for (key, cooldown) in try object.optional("device_cooldown_seconds")?.entries() ?? [] {
            let quotaClass = try Self.quotaClass(named: key, at: cooldown)
            guard daily[quotaClass] != nil else { throw cooldown.failure("the tier has no daily limit for \(key)") }
            deviceCooldowns[quotaClass] = try cooldown.seconds(atLeast: 0)
        }

        let runningJobCap = try object.required("running_jobs").wholeNumber(atLeast: 1)
        let refundCap = try object.required("refund_cap").wholeNumber(atLeast: 0)
        let maxDevicesPerDay = try object.required("max_devices_per_day").wholeNumber(atLeast: 1)

        let products = try object.optional("products")?.uniqueStrings() ?? []
        let entitlements = try object.optional("entitlements")?.uniqueStrings() ?? []
        // The lowest tier is what an identity has without buying anything; a product that "grants" it is a mix-up.
        if isLowest, let first = (products + entitlements).first {
            throw first.field.failure("the lowest tier is what identities have without a purchase: nothing grants it")
        }
        for (product, element) in products {
            if let other = earlierTiers.first(where: { $0.products.contains(product) }) {
                throw element.failure("\"\(product)\" already grants tier \"\(other.name)\"")
            }
        }
        for (entitlement, element) in entitlements {
            if let other = earlierTiers.first(where: { $0.entitlements.contains(entitlement) }) {
                throw element.failure("\"\(entitlement)\" already grants tier \"\(other.name)\"")
            }
        }

        var excludedKinds: Set<String> = []
        for (kind, element) in try object.optional("excluded_kinds")?.uniqueStrings() ?? [] {
            guard kinds[kind] != nil else { throw element.failure("no kind \"\(kind)\" is defined") }
            excludedKinds.insert(kind)
        }
        // A kind the tier may submit but whose class it gives no limit would be refused with nothing in the file
        // saying so: the limit must be written, even if it is 0.
        for (kind, cost) in kinds.sorted(by: { $0.key < $1.key }) where !excludedKinds.contains(kind) && daily[cost.quotaClass] == nil {
            throw dailyField.failure(at: cost.quotaClass.rawValue, "required by kind \(kind) (or list the kind in excluded_kinds)")
        }

        self.init(
            name: name,
            isLowest: isLowest,
            daily: daily,
            deviceCooldowns: deviceCooldowns,
            runningJobCap: runningJobCap,
            refundCap: refundCap,
            maxDevicesPerDay: maxDevicesPerDay,
            products: Set(products.map(\.text)),
            entitlements: Set(entitlements.map(\.text)),
            excludedKinds: excludedKinds
        )
    }

    private static func quotaClass(named key: String, at field: PolicyField) throws(PolicyError) -> QuotaClass {
        guard let quotaClass = QuotaClass(rawValue: key) else {
            throw field.failure("not a quota class: expected one of \(QuotaClass.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return quotaClass
    }
}
