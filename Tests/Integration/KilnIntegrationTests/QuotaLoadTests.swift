import Foundation
import KilnPolicy
import KilnStore
import Locking
import Testing

/// `kiln-dev loadtest quota` as a process, with several generator processes and an API node started from `kiln`, against
/// the real Redis and PostgreSQL: the audit passes on the real admission, and catches the naive one over-admitting.
@Suite struct QuotaLoadTests {
    static var policies: String { TestServers.repositoryRoot.appendingPathComponent("deploy/policies.json").path }

    /// A small load: every scenario, 40 identities each sending 12 requests at once from 3 processes (2,400 decisions).
    static func loadtest(_ harness: Harness, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await AdminCommandTests.kiln(
            harness,
            [
                "loadtest", "quota", "--identities", "40", "--requests", "12", "--processes", "3", "--connections", "4", "--policies", policies,
                "--output-directory", harness.objects.root.appendingPathComponent("loadtest").path,
            ] + arguments, program: "kiln-dev")
    }

    /// The number the audit's verdict gives before `label`.
    static func count(_ label: String, in output: String) -> Int? {
        guard let verdict = output.split(separator: "\n").first(where: { $0.hasPrefix("audit:") }),
            let range = verdict.range(of: " \(label)")
        else { return nil }
        return Int(verdict[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    @Test func everyDecisionOfTheRealAPIPassesTheAudit() async throws {
        try await Harness.with { harness in
            let (status, output) = try await Self.loadtest(harness, [])
            #expect(status == 0, "\(output)")
            #expect(output.contains("audit: passed: 2400 decisions of 200 identities audited"), "\(output)")
            #expect(Self.count("over-admissions", in: output) == 0)
        }
    }

    @Test func theNaiveModeIsCaughtOverAdmitting() async throws {
        try await Harness.with { harness in
            let (status, output) = try await Self.loadtest(harness, ["--naive"])
            #expect(status == 1, "\(output)")
            #expect(output.contains("audit: FAILED"), "\(output)")
            #expect((Self.count("over-admissions", in: output) ?? 0) > 0, "\(output)")
        }
    }

    @Test func anyDeploymentCanBeDrivenByURLAndKey() async throws {
        try await Harness.with { harness in
            // The checked-in file, with stand-ins for the JWT secrets it names (the loadtest tenant needs none).
            let secret = String(repeating: "s", count: 32)
            try harness.usePolicies(
                try String(contentsOfFile: Self.policies, encoding: .utf8),
                directory: URL(fileURLWithPath: Self.policies).deletingLastPathComponent(),
                environment: ["KILN_JOANIE_JWT_SECRET": secret, "KILN_VERAMO_JWT_SECRET": secret])
            let client = try await harness.tenant("loadtest")
            try await harness.startAPI()
            let (status, output) = try await Self.loadtest(
                harness, ["--api-url", try harness.apiURL, "--key", client.key, "--scenario", "cost", "--scenario", "shared-pool"])
            #expect(status == 0, "\(output)")
            #expect(output.contains("audit: passed: 960 decisions of 80 identities audited"), "\(output)")

            // The audit judges by the file it is given: a file that differs from the API's is refused before the run.
            let file = try String(contentsOfFile: Self.policies, encoding: .utf8)
            try FileManager.default.createDirectory(at: harness.objects.root, withIntermediateDirectories: true)
            let wrong = harness.objects.root.appendingPathComponent("policies.json")
            try file.replacingOccurrences(of: #""limit-3": {"daily": {"text": 3}"#, with: #""limit-3": {"daily": {"text": 4}"#)
                .write(to: wrong, atomically: true, encoding: .utf8)
            let refused = try await Self.loadtest(harness, ["--api-url", try harness.apiURL, "--key", client.key, "--policies", wrong.path])
            #expect(refused.status != 0)
            #expect(refused.output.contains("tier limit-3 differs from \(wrong.path): text limit 3 there, 4 here"), "\(refused.output)")
        }
    }
}
