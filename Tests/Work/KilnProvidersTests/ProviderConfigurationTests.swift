import Foundation
import KilnProviders
import Testing

@Suite struct ProviderConfigurationTests {
    let directory = FileManager.default.temporaryDirectory

    func load(_ json: String, environment: [String: String] = [:]) throws(ProviderConfigurationError) -> ProviderConfiguration {
        try ProviderConfiguration.load(Data(json.utf8), environment: environment, directory: self.directory)
    }

    static let routes =
        #""routes": [{"tenant": "*", "kind": "text.x", "models": [{"provider": "a", "model": "m1"}]},"#
        + #" {"tenant": "joanie", "kind": "text.x", "models": [{"provider": "a", "model": "m2"}]}]"#

    @Test func theCheckedInFilesAreValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let simulator = try ProviderConfiguration.load(
            Data(contentsOf: root.appendingPathComponent("deploy/providers.json")), environment: [:], directory: root)
        #expect(simulator.providers.values.allSatisfy { $0.endpoint.baseURL == "http://127.0.0.1:8790" })
        let real = try ProviderConfiguration.load(
            Data(contentsOf: root.appendingPathComponent("deploy/providers.real.json")),
            environment: ["ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o", "XAI_API_KEY": "x", "GEMINI_API_KEY": "g", "FAL_KEY": "f"],
            directory: root)
        #expect(real.providers["anthropic"]?.endpoint.apiKey == "a")
    }

    @Test func aTenantsOwnRouteWinsOverTheOneForEveryTenant() throws {
        let configuration = try self.load(#"{"providers": {"a": {"api": "anthropic", "base_url": "http://h", "api_key": "k"}}, "# + Self.routes + "}")
        let own = try #require(configuration.routeIndex(tenant: "joanie", kind: "text.x"))
        #expect(configuration.routes[own].models.first?.model == "m2")
        let shared = try #require(configuration.routeIndex(tenant: "veramo", kind: "text.x"))
        #expect(configuration.routes[shared].models.first?.model == "m1")
        #expect(configuration.routeIndex(tenant: "veramo", kind: "text.y") == nil)
    }

    @Test func keysComeFromTheEnvironmentOrAFile() throws {
        let file = self.directory.appendingPathComponent("kiln-key-\(UUID())")
        try "sk-from-file\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = try self.load(
            #"{"providers": {"a": {"api": "anthropic", "base_url": "https://h", "api_key_env": "KEY_A"},"#
                + #" "b": {"api": "openai_chat", "base_url": "https://h", "api_key_file": "\#(file.lastPathComponent)", "idle_timeout_s": 5}}, "routes": []}"#,
            environment: ["KEY_A": "sk-from-env"])
        #expect(configuration.providers["a"]?.endpoint.apiKey == "sk-from-env")
        #expect(configuration.providers["b"]?.endpoint.apiKey == "sk-from-file")
        #expect(configuration.providers["b"]?.endpoint.idleTimeout == .seconds(5))
    }

    @Test(arguments: [
        (#"{"providers": {"a": {"api": "cohere", "base_url": "https://h", "api_key": "k"}}, "routes": []}"#, "providers.a.api"),
        (#"{"providers": {"a": {"api": "anthropic", "base_url": "ftp://h", "api_key": "k"}}, "routes": []}"#, "providers.a.base_url"),
        (#"{"providers": {"a": {"api": "anthropic", "base_url": "https://h", "api_key_env": "MISSING"}}, "routes": []}"#, "providers.a.api_key_env"),
        (#"{"providers": {"a": {"api": "anthropic", "base_url": "https://h"}}, "routes": []}"#, "providers.a"),
        (#"{"providers": {"a": {"api": "anthropic", "base_url": "https://h", "api_key": "k"}}}"#, "routes"),
        (
            #"{"providers": {"a": {"api": "anthropic", "base_url": "https://h", "api_key": "k"}}, "routes": [{"tenant": "*", "kind": "k", "models": [{"provider": "b", "model": "m"}]}]}"#,
            "routes[0].models[0].provider"
        ),
        (#"{"providers": {}, "routes": []}"#, "providers"),
    ])
    func aWrongFileNamesTheField(json: String, field: String) {
        let error = #expect(throws: ProviderConfigurationError.self) { try self.load(json) }
        #expect(error?.field == field)
    }
}
