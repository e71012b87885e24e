import CurlClient
import Foundation
import KilnJSON
import RenderingFixtures
import Testing

/// Which Kiln a process is, as an operator reads it: `--version`, `/healthz` and `kiln_build_info` name the same
/// release and the commit the tree under test was built from.
@Suite struct VersionTests {
    /// `1.0.0 (commit 0123456789ab)`: the release and the commit, with `-dirty` for a tree with changes.
    static var versionLine: Regex<(Substring, Substring, Substring, Substring?)> { #/^(\d+\.\d+\.\d+) \(commit ([0-9a-f]{12})(-dirty)?\)$/# }

    static func versionLine(of program: String) async throws -> (version: String, commit: String) {
        let output = String(decoding: try await Command.run([try TestServers.executable(program).path, "--version"]), as: UTF8.self)
        let line = output.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: versionLine), "not a release and a commit: \(line)")
        return (String(match.1), String(match.2) + (match.3.map(String.init) ?? ""))
    }

    @Test(arguments: ["kiln", "kiln-dev"])
    func theProgramsPrintTheReleaseAndTheCommitTheyWereBuiltFrom(program: String) async throws {
        let (_, commit) = try await Self.versionLine(of: program)
        let head = String(
            decoding: try await Command.run(["git", "-C", TestServers.repositoryRoot.path, "rev-parse", "HEAD"]), as: UTF8.self)
        #expect(head.hasPrefix(commit.replacingOccurrences(of: "-dirty", with: "")), "built from \(commit), the tree is at \(head)")
    }

    @Test func healthzAndTheMetricsNameTheReleaseTheNodeRuns() async throws {
        let (version, commit) = try await Self.versionLine(of: "kiln")
        try await Harness.with { harness in
            let api = try await harness.readyAPI()
            let health = try await harness.http.execute(HTTPRequest(url: api.url + "/healthz"), timeout: .seconds(10))
            let answer = try #require(JSONValue.parse(String(decoding: health.body, as: UTF8.self)))
            #expect(answer["version"]?.stringValue == version)
            #expect(answer["commit"]?.stringValue == commit)
            let metrics = try await harness.http.execute(HTTPRequest(url: api.url + "/metrics"), timeout: .seconds(10))
            // A gauge, written as a float.
            let info = String(decoding: metrics.body, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("kiln_build_info{") }
            #expect(info.count == 1, "\(info)")
            #expect(info.first?.contains(#"version="\#(version)""#) == true && info.first?.contains(#"commit="\#(commit)""#) == true)
            #expect(info.first.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } == 1)
            api.kill(SIGTERM)
            #expect(try await api.waitForExit(within: .seconds(30)))
        }
    }
}
