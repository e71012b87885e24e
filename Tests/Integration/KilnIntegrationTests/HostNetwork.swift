import Foundation
import Glibc
import Spawning
import Testing

/// Hosts on this machine: network namespaces, each joined to a router namespace by a veth pair of its own on a /24 of
/// its own (the router `.1`, the host `.2`), so whatever one host sends another crosses two veth links and the router.
/// A data host (Redis and PostgreSQL, each on an address of its own), an API host, worker hosts and a client host.
/// Every name carries a random suffix, and ``remove()`` deletes the namespaces with every process still in them.
final class HostNetwork: Sendable {
    struct Host: Sendable {
        let namespace: NetworkNamespace
        /// Its address on its link to the router.
        let address: String
        /// The router's end of its link: taking it down cuts the host off, as a pulled cable or a dead switch port does.
        let routerLink: String

        /// The router's address on its link.
        var gateway: String { address.split(separator: ".").dropLast().joined(separator: ".") + ".1" }

        /// `command` as it runs on this host.
        func command(_ command: [String]) -> [String] { namespace.command(command) }
    }

    /// Why the test cannot make hosts here, or nil when it can: `ip netns` needs root and iproute2. (Root may still be
    /// refused namespaces, in a container say: ``make(workers:)`` then cancels the test, saying so.)
    static var unavailableReason: String? {
        if getuid() != 0 { return "network namespaces need root (uid \(getuid()))" }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        if !directories.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/ip") }) {
            return "no `ip` program (iproute2) on PATH"
        }
        return nil
    }

    let router: NetworkNamespace
    let data: Host
    /// The data host's second address, where PostgreSQL listens: cutting a host off Redis's address leaves it this one.
    let databaseAddress: String
    let api: Host
    let workers: [Host]
    let client: Host
    private let namespaces: [NetworkNamespace]

    private init(suffix: String, workers count: Int) {
        let prefix = "kiln-\(suffix)"
        router = NetworkNamespace(name: "\(prefix)-router")
        let roles = ["data", "api", "client"] + (1...count).map { "worker\($0)" }
        let hosts = roles.enumerated().map { index, role in
            Host(
                namespace: NetworkNamespace(name: "\(prefix)-\(role)"), address: "10.77.\(index + 1).2", routerLink: "k\(suffix)r\(index + 1)")
        }
        data = hosts[0]
        databaseAddress = "10.77.1.3"
        api = hosts[1]
        client = hosts[2]
        workers = Array(hosts[3...])
        namespaces = [router] + hosts.map(\.namespace)
    }

    /// Makes the namespaces and links; removes what it made if any step fails.
    static func make(workers count: Int = 3) async throws -> HostNetwork {
        let suffix = String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(6))
        let network = HostNetwork(suffix: suffix, workers: count)
        do {
            try await network.build(suffix: suffix)
        } catch {
            await network.remove()
            throw error
        }
        return network
    }

    private func build(suffix: String) async throws {
        do {
            try await Self.ip(["netns", "add", router.name])
        } catch {
            // Root without the right to make namespaces (a container, say): `ip netns` is not available here.
            try Test.cancel(Comment(rawValue: "ip netns is not available here: \(error)"))
        }
        for namespace in namespaces {
            if namespace.name != router.name { try await Self.ip(["netns", "add", namespace.name]) }
            try await Self.ip(["-n", namespace.name, "link", "set", "lo", "up"])
        }
        // /proc/sys/net is the reader's namespace's: the router's forwarding, set from inside it.
        try await Self.run(router.command(["sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward"]))
        for (index, host) in ([data, api, client] + workers).enumerated() {
            let subnet = "10.77.\(index + 1)"
            let hostLink = "k\(suffix)h\(index + 1)"
            try await Self.ip([
                "link", "add", host.routerLink, "netns", router.name, "type", "veth", "peer", "name", hostLink, "netns", host.namespace.name,
            ])
            try await Self.ip(["-n", router.name, "addr", "add", "\(subnet).1/24", "dev", host.routerLink])
            try await Self.ip(["-n", router.name, "link", "set", host.routerLink, "up"])
            try await Self.ip(["-n", host.namespace.name, "addr", "add", "\(host.address)/24", "dev", hostLink])
            if host.namespace.name == data.namespace.name {
                try await Self.ip(["-n", host.namespace.name, "addr", "add", "\(databaseAddress)/24", "dev", hostLink])
            }
            try await Self.ip(["-n", host.namespace.name, "link", "set", hostLink, "up"])
            try await Self.ip(["-n", host.namespace.name, "route", "add", "default", "via", "\(subnet).1"])
        }
    }

    /// Takes the router's end of `host`'s link down: what the host sends is lost, and nothing reaches it.
    func partition(_ host: Host) async throws {
        try await Self.ip(["-n", router.name, "link", "set", host.routerLink, "down"])
    }

    /// Brings `host`'s link back; its connections that outlived the partition carry on.
    func heal(_ host: Host) async throws {
        try await Self.ip(["-n", router.name, "link", "set", host.routerLink, "up"])
    }

    /// Drops, on `host`, whatever it sends to `address` (a blackhole route): its connections there go silent and new
    /// ones fail, while the rest of the network still reaches it.
    func cut(_ host: Host, from address: String) async throws {
        try await Self.ip(["-n", host.namespace.name, "route", "add", "blackhole", "\(address)/32"])
    }

    func reconnect(_ host: Host, to address: String) async throws {
        try await Self.ip(["-n", host.namespace.name, "route", "del", "blackhole", "\(address)/32"])
    }

    /// Kills every process still in the namespaces (all started by this test: the namespaces are its own), then
    /// deletes them, which deletes their veth links too.
    func remove() async {
        for namespace in namespaces {
            let pids = (try? await Self.output(["ip", "netns", "pids", namespace.name])) ?? ""
            for pid in pids.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { Glibc.kill(pid, SIGKILL) }
        }
        for namespace in namespaces { try? await Self.ip(["netns", "delete", namespace.name]) }
    }

    /// Runs `body` with a fresh network and always removes it.
    static func with(workers count: Int = 3, _ body: (HostNetwork) async throws -> Void) async throws {
        let network = try await make(workers: count)
        do {
            try await body(network)
        } catch {
            await network.remove()
            throw error
        }
        await network.remove()
    }

    private static func ip(_ arguments: [String]) async throws {
        try await run(["ip"] + arguments)
    }

    /// Runs `command`; throws with what it printed on stderr when it fails.
    static func run(_ command: [String]) async throws {
        _ = try await output(command)
    }

    private static func output(_ command: [String]) async throws -> String {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-ip-\(UUID().uuidString.prefix(8)).err")
        let descriptor = open(errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(errors.path)") }
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: errors)
        }
        let process = try SpawnedProcess(command, stdout: .pipe, stderr: .descriptor(descriptor))
        let output = try process.output?.readToEnd() ?? Data()
        let termination = await process.exit()
        guard termination.succeeded else {
            let message = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw TestFailure("\(command.joined(separator: " ")) exited with \(termination.shellStatus): \(message)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
