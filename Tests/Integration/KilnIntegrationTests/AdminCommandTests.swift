import Foundation
import KilnCore
import KilnQueue
import KilnStore
import Spawning
import Testing

/// The operator's `kiln` subcommands, run as a process against the test's namespace and schema.
@Suite struct AdminCommandTests {
    /// Runs `program` with `arguments`, and the harness's connection flags unless `connected` is false (a command that
    /// reaches no server takes none).
    static func kiln(
        _ harness: Harness, _ arguments: [String], program: String = "kiln", wrappedIn wrapper: [String] = [], connected: Bool = true
    ) async throws -> (status: Int32, output: String) {
        // Both streams go to one file, read once the command has exited: a pipe nobody read while waiting could fill up.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-command-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try SpawnedProcess(
            wrapper + (connected ? try harness.kilnCommand(arguments, program: program) : [try TestServers.executable(program).path] + arguments),
            stdout: .descriptor(handle.fileDescriptor),
            stderr: .descriptor(handle.fileDescriptor))
        let termination = await process.exit()
        return (termination.shellStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }

    /// As a service runs it: not root, no capabilities (the image's user 10001, a systemd unit's `kiln`). Kiln asked its
    /// Redis connections for SO_DEBUG (TCP_NODELAY at the wrong level), which only CAP_NET_ADMIN may set, so every
    /// connect was refused with "permission denied".
    @Test func aCommandWithoutPrivilegesReachesRedisAndPostgreSQL() async throws {
        try await Harness.with { harness in
            // Root here (CI): drop to nobody with setpriv; anyone else is unprivileged already.
            let unprivileged =
                getuid() == 0
                ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all"] : []
            let stats = try await Self.kiln(harness, ["queue", "stats"], wrappedIn: unprivileged)
            #expect(stats.status == 0, "\(stats.output)")
            #expect(stats.output.contains("dead 0"))
        }
    }

    @Test func pausingAndResumingATenantOrAClassFromTheCommandLine() async throws {
        try await Harness.with { harness in
            let paused = try await Self.kiln(harness, ["queue", "pause", "--tenant", "acme"])
            #expect(paused.status == 0 && paused.output.contains("paused tenant acme"), "\(paused.output)")
            #expect(try await Self.kiln(harness, ["queue", "pause", "--class", "cpu"]).status == 0)
            #expect(try await Self.kiln(harness, ["queue", "pause", "--tenant", "acme"]).output.contains("tenant acme was already paused"))
            #expect(try await harness.redisNamespace.admin.paused() == [.tenant(try #require(TenantID(validating: "acme"))), .jobClass(.cpu)])
            #expect(try await Self.kiln(harness, ["queue", "paused"]).output == "class cpu\ntenant acme\n")
            #expect(try await Self.kiln(harness, ["queue", "resume", "--class", "cpu"]).output.contains("resumed class cpu"))
            #expect(try await Self.kiln(harness, ["queue", "resume", "--class", "cpu"]).output.contains("class cpu was not paused"))
            #expect(try await harness.redisNamespace.admin.paused() == [.tenant(try #require(TenantID(validating: "acme")))])
            // Exactly one lane, and a real one.
            for wrong in [["--tenant", "acme", "--class", "io"], [], ["--class", "gpu"], ["--tenant", "Bad:Name"]] {
                let refused = try await Self.kiln(harness, ["queue", "pause"] + wrong)
                #expect(refused.status != 0, "\(wrong): \(refused.output)")
            }
            #expect(try await Self.kiln(harness, ["queue", "pause", "--class", "gpu"]).output.contains("--class: gpu is not one of io, cpu"))
        }
    }

    @Test func tenantsKeysAndTheDeadLetterSetFromTheCommandLine() async throws {
        try await Harness.with { harness in
            #expect(try await Self.kiln(harness, ["tenant", "create", "cli-app", "--diagnostics", "--weight", "2"]).status == 0)
            #expect(try await Self.kiln(harness, ["tenant", "create", "cli-app"]).status == 3)
            #expect(try await Self.kiln(harness, ["tenant", "list"]).output.contains("cli-app\tcli-app\t2"))
            #expect(try await Self.kiln(harness, ["tenant", "create", "Bad:Name"]).status != 0)

            let key = try await Self.kiln(harness, ["key", "create", "cli-app", "--raw"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.hasPrefix("kiln_"))
            let listed = try await Self.kiln(harness, ["key", "list", "cli-app"]).output
            #expect(listed.contains(APIKey.displayPrefix(key)))
            #expect(!listed.contains(key), "a key is shown once, never listed")
            #expect(try await Self.kiln(harness, ["key", "revoke", APIKey.displayPrefix(key)]).status == 0)
            #expect(try await Self.kiln(harness, ["key", "list", "cli-app"]).output.contains("\t-") == false)

            guard
                case .created(let id, _) = try await harness.queue.enqueue(QueueEngineTests.submission("cli-app", kind: "diag.fail", maxAttempts: 1))
            else {
                throw TestFailure("not created")
            }
            let stats = try await Self.kiln(harness, ["queue", "stats"]).output
            #expect(stats.contains("cli-app\tio\tnormal\t1"))
            let job = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            _ = try await harness.queue.settle([Settlement(job: id, attempt: job.attempt, outcome: .failed(code: "boom", message: "broken"))])
            #expect(try await Self.kiln(harness, ["dead", "list"]).output.contains("\(id)\tcli-app\tdiag.fail\tfailed"))
            #expect(try await Self.kiln(harness, ["job", "show", id.rawValue]).output.contains("redis: failed"))
            #expect(try await Self.kiln(harness, ["dead", "replay", id.rawValue]).output.contains("replayed \(id)"))
            #expect(try await Self.kiln(harness, ["dead", "replay", id.rawValue]).status == 1)
            #expect(try await harness.queue.snapshot(id, tenant: job.tenant)?.state == .queued)
        }
    }

    @Test func anAPINodeWithAWrongPolicyFileStopsAtStartNamingTheField() async throws {
        try await Harness.with { harness in
            let path = harness.objects.root.appendingPathComponent("policies.json").path
            try FileManager.default.createDirectory(at: harness.objects.root, withIntermediateDirectories: true)
            try Data(#"{"talevonia": {"reset_time_zone": "Mars/Base"}}"#.utf8).write(to: URL(fileURLWithPath: path))
            let (status, output) = try await Self.kiln(harness, ["api", "--port", "0", "--policies", path])
            #expect(status != 0)
            #expect(output.contains("talevonia."), "the message names the field: \(output)")
        }
    }

    /// `kiln policies check` reads a file as the API does: the shipped one lists its tenants; a wrong one names the field
    /// and exits 64, as docs/compatibility.md says.
    @Test func policiesCheckListsTheTenantsOrNamesTheWrongField() async throws {
        try await Harness.with { harness in
            let shipped = TestServers.repositoryRoot.appendingPathComponent("deploy/policies.json").path
            let good = try await Self.kiln(harness, ["policies", "check", "--policies", shipped], connected: false)
            #expect(good.status == 0 && good.output.contains("talevonia"), "\(good.output)")
            let path = harness.objects.root.appendingPathComponent("policies.json").path
            try FileManager.default.createDirectory(at: harness.objects.root, withIntermediateDirectories: true)
            try Data(#"{"talevonia": {"reset_time_zone": "Mars/Base"}}"#.utf8).write(to: URL(fileURLWithPath: path))
            let wrong = try await Self.kiln(harness, ["policies", "check", "--policies", path], connected: false)
            #expect(wrong.status == 64)
            #expect(wrong.output.contains("talevonia."), "the message names the field: \(wrong.output)")
        }
    }

    @Test(arguments: ["kiln.example.com", "https://kiln.example.com/app", "ftp://kiln.example.com"])
    func aWorkerWithAPublicURLThatIsNoSiteStopsAtStart(publicURL: String) async throws {
        try await Harness.with { harness in
            let (status, output) = try await Self.kiln(harness, ["worker", "--public-url", publicURL])
            #expect(status != 0)
            #expect(output.contains("--public-url must be an http or https address"), "\(output)")
        }
    }

    @Test func quotaReconcileReportsADayWithoutDrift() async throws {
        try await Harness.with { harness in
            let (status, output) = try await Self.kiln(harness, ["quota", "reconcile", "--tenant", "acme", "--day", "20261122"])
            #expect(status == 0)
            #expect(output.contains("no drift on 20261122"))
            #expect(try await Self.kiln(harness, ["quota", "reconcile", "--tenant", "acme", "--day", "yesterday"]).status != 0)
        }
    }
}
