import Foundation
import KilnCore
import KilnKeys
import KilnPolicy
@testable import KilnProviders
@testable import KilnQueue
import RedisClient
import Testing

/// Each script's declared header against its Swift contract: a key or argument added, dropped, renamed or moved on one
/// side only fails here, before any script runs on Redis.
@Suite struct ScriptContractTests {
    /// Every script: its contract, and the Lua the loader puts after the generated helpers and bindings.
    static let scripts: [(contract: any RedisScriptContract.Type, body: String)] =
        QueueScripts.contracts.map { ($0, (try? QueueScripts.read($0.scriptName)) ?? "") }
        + [(ProviderSlotCall.self, ProviderSlotCall.body)]
    static let scriptNames = scripts.map { $0.contract.scriptName }

    @Test(arguments: scriptNames)
    func theHeaderDeclaresTheContractsKeysArgumentsAndReplies(script name: String) throws {
        let (contract, body) = try #require(Self.scripts.first { $0.contract.scriptName == name })
        #expect(!body.isEmpty, "Scripts/\(name).lua could not be read")
        let header = ScriptHeader(lua: body)
        #expect(header.keys == contract.keyNames)
        #expect(header.arguments == contract.argumentNames)
        #expect(header.itemArguments == contract.itemArgumentNames)
        #expect(Set(header.replies.map(\.tag)) == Set(contract.replies.map(\.tag)))
        for shape in contract.replies {
            #expect(header.replies.first { $0.tag == shape.tag } == shape, "reply \(shape.tag ?? "(untagged)")")
        }
    }

    @Test(arguments: scriptNames)
    func theBodyReadsItsKeysAndArgumentsOnlyByTheirGeneratedNames(script name: String) throws {
        let (contract, body) = try #require(Self.scripts.first { $0.contract.scriptName == name })
        let code = Self.code(of: body)
        #expect(!code.contains("KEYS["))
        #expect(!code.contains("ARGV"))
        #expect(code.contains("each_item()") == !contract.itemArgumentNames.isEmpty)
    }

    @Test func everyKeyTheScriptsBuildComesFromTheKeySpace() throws {
        let generated = Set(KeyPattern.all.map { $0.name + "_key" })
        let lua = try ([QueueScripts.read("common")] + Self.scripts.map(\.body)).map(Self.code(of:)).joined(separator: "\n")
        let called = Set(lua.matches(of: /([a-z_]+_key)\(/).map { String($0.output.1) })
        #expect(!called.isEmpty)
        #expect(called.subtracting(generated).isEmpty, "helpers no pattern generates: \(called.subtracting(generated).sorted())")
        #expect(!lua.contains("base .. '"), "a key spelled by hand")
    }

    @Test func aScriptGetsOnlyTheHelpersItUsesAndThoseTheyUse() throws {
        let scripts = try QueueScripts.loaded.get()
        #expect(scripts.recorded.source.contains("local function job_key("))
        #expect(!scripts.recorded.source.contains("local function finish("))
        #expect(!scripts.recorded.source.contains("local function quota_key("))
        // settle → finish → settle_reservation → escalate → block_key, and finish → later → its batch tables.
        for helper in ["local function finish(", "local function escalate(", "local function block_key(", "local batched, batched_order"] {
            #expect(scripts.settle.source.contains(helper), "settle lacks \(helper)")
        }
    }

    @Test(arguments: scriptNames)
    func aScriptThatPutsWritesOffFlushesThem(script name: String) throws {
        let (_, body) = try #require(Self.scripts.first { $0.contract.scriptName == name })
        let code = Self.code(of: body)
        let defers = ["finish(", "later(", "free_slot_later("].contains { code.contains($0) }
        #expect(!defers || code.contains("flush_batched()"))
    }

    @Test func theGeneratedHelpersSpellTheSameKeysAsSwift() throws {
        let keys = KeySpace(namespace: "ns")
        let tenant = try #require(TenantID(validating: "acme"))
        #expect(
            KeySpace.luaHelpers.contains(
                "local function quota_key(base, tenant, subject, day) return base .. ':quota:' .. tenant .. ':' .. subject .. ':' .. day end"))
        #expect(keys.quota(tenant, "user-1", "20261125") == "{ns}:quota:acme:user-1:20261125")
        #expect(
            KeySpace.luaHelpers.contains(
                "local function provider_slots_key(base, provider, model) return base .. ':provider:' .. provider .. ':' .. model .. ':slots' end"))
        #expect(keys.providerSlots("openai", model: "gpt") == "{ns}:provider:openai:gpt:slots")
        #expect(keys.prefix(.quota, "acme", "user-1") == "{ns}:quota:acme:user-1:")
        #expect(keys.prefix(.job) == "{ns}:job:")
    }

    @Test func anUnmeteredSubmissionSendsEmptyAdmissionArgumentsAndAMeteredOneFillsThemAll() throws {
        let names = EnqueueCall.argumentNames
        let admission = try #require(names.firstIndex(of: "subject"))
        var submission = try Self.submission()
        let unmetered = EnqueueCall(keySpace: KeySpace(namespace: "ns"), id: JobID(), submission: submission, configuration: QueueConfiguration())
        #expect(unmetered.argumentValues.count == names.count)
        #expect(unmetered.argumentValues[admission...].allSatisfy { $0.isEmpty })
        let policy = try #require(PolicySet.load(path: Self.checkedInPolicies).tenants.values.first)
        submission.charge = QuotaCharge(
            subject: "user-1", quotaClass: .text, cost: 1, limit: 10, day: policy.dayWindow(containing: Date(timeIntervalSince1970: 1_790_000_000)),
            runningCap: 3, device: "device-1", cooldown: .seconds(5), refundCap: 2, tier: policy.lowestTier, ip: "203.0.113.7", maxDevices: 3,
            abuse: policy.abuse)
        let metered = EnqueueCall(keySpace: KeySpace(namespace: "ns"), id: JobID(), submission: submission, configuration: QueueConfiguration())
        let empty = zip(names, metered.argumentValues).filter { $0.1.isEmpty }.map(\.0)
        #expect(empty == ["idem_key"], "a metered submission left these empty")
    }

    @Test func itemsFollowTheFixedArgumentsInTheirDeclaredOrder() throws {
        let id = JobID()
        let call = RenewCall(keySpace: KeySpace(namespace: "ns"), items: [(id, 3), (id, 4)], configuration: QueueConfiguration())
        #expect(call.argumentValues == ["{ns}", "5000", id.rawValue, "3", id.rawValue, "4"])
        #expect(call.keyValues == ["{ns}:inflight"])
        #expect(RenewCall.luaBindings.contains("local inflight = KEYS[1]"))
        #expect(RenewCall.luaBindings.contains("local base, lease_ms = ARGV[1], ARGV[2]"))
    }

    @Test func repliesAreReadByTheirDeclaredFieldNames() throws {
        let denied = try EnqueueCall.outcome(
            of: .array([
                .bulk(Array("denied".utf8)), .bulk(Array("device_cooldown".utf8)), .integer(10), .integer(4), .integer(1), .integer(2500), .bulk([]),
            ]))
        guard case .denied(let denial) = denied else {
            Issue.record("not a denial: \(denied)")
            return
        }
        #expect(denial.reason == .deviceCooldown)
        #expect(denial.usage == QuotaUsage(limit: 10, used: 4, pending: 1))
        #expect(denial.retryAfter == .milliseconds(2500))
        #expect(denial.blockReason == nil)
    }

    @Test func aReplyOfAnotherShapeIsAnErrorNotAMisreadValue() {
        #expect(throws: RedisError.self) { try EnqueueCall.outcome(of: .array([.bulk(Array("created".utf8)), .bulk(Array("x".utf8))])) }
        #expect(throws: RedisError.self) { try CancelCall.outcome(of: .array([.bulk(Array("vanished".utf8))])) }
        #expect(SettleCall.settled(from: .array([.integer(1), .bulk(Array("succeeded".utf8))])).isEmpty)
    }

    private static let checkedInPolicies = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("deploy/policies.json").path

    /// The script without its comments.
    private static func code(of lua: String) -> String {
        lua.split(separator: "\n").map { line in line.range(of: "--").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    private static func submission() throws -> Submission {
        Submission(
            tenant: try #require(TenantID(validating: "acme")),
            identity: try #require(Identity(validating: "user-1")), kind: "diag.echo", jobClass: .io, priority: .normal, input: "{}",
            maxAttempts: 3, timeout: .seconds(30), runningCap: 4, weight: 1, bodyHash: "hash")
    }
}
