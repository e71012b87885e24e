public import Foundation
import KilnJSON

/// Which providers exist, how to reach them, and which models serve each tenant's kinds, from a JSON file
/// (`deploy/providers.json` points everything at the provider simulator). Keys come from the file, an environment
/// variable or a file of their own, so real providers are one configuration change.
public struct ProviderConfiguration: Sendable {
    /// The wire formats Kiln speaks.
    public enum API: String, Sendable, CaseIterable {
        case anthropic
        case openAIChat = "openai_chat"
        /// The servers that copy OpenAI's chat completions (llama.cpp, vLLM, Ollama): the same wire format, with the
        /// length limit in `max_tokens`.
        case openAICompatible = "openai_compatible"
        case gemini
        /// fal.ai's queue API: image models only.
        case fal
    }

    /// One provider account.
    public struct Provider: Sendable {
        public var name: String
        public var api: API
        public var endpoint: ProviderEndpoint
        /// The most calls in flight at once to each of its models, across the fleet; `nil` for no cap.
        public var maxConcurrent: Int?
    }

    /// The models that serve one kind for one tenant (or `*`, every tenant without a route of its own), in order.
    public struct Route: Sendable {
        public var tenant: String
        public var kind: String
        public var models: [(provider: String, model: String)]
    }

    public var providers: [String: Provider]
    public var routes: [Route]
    /// The moderation model that judges inputs and outputs, on an `openai_chat` provider; `nil` checks nothing
    /// beyond the API's local pre-filter.
    public var moderation: (provider: String, model: String)?

    /// Reads and checks a configuration file; an error names the field that is wrong.
    /// - Parameters:
    ///   - environment: where `api_key_env` variables are looked up.
    ///   - directory: where relative `api_key_file` paths start.
    public static func load(_ data: Data, environment: [String: String], directory: URL) throws(ProviderConfigurationError) -> ProviderConfiguration {
        guard let root = JSONValue.parse(String(decoding: data, as: UTF8.self)), case .object(let fields) = root else {
            throw ProviderConfigurationError(field: "", message: "the file is not a JSON object")
        }
        guard case .object(let providerFields)? = fields["providers"], !providerFields.isEmpty else {
            throw ProviderConfigurationError(field: "providers", message: "an object of at least one provider is required")
        }
        var providers: [String: Provider] = [:]
        for (name, value) in providerFields {
            providers[name] = try Self.provider(name, value, environment: environment, directory: directory)
        }
        guard let routeValues = fields["routes"]?.arrayValue else {
            throw ProviderConfigurationError(field: "routes", message: "an array is required")
        }
        let routes = try routeValues.enumerated().map { (index, value) throws(ProviderConfigurationError) in
            try Self.route(index, value, providers: providers)
        }
        return ProviderConfiguration(
            providers: providers, routes: routes, moderation: try Self.moderation(fields["moderation"], providers: providers))
    }

    /// Where in ``routes`` the route for `kind` of `tenant` is: the tenant's own, else the one for every tenant;
    /// `nil` when neither exists.
    public func routeIndex(tenant: String, kind: String) -> Int? {
        self.routes.firstIndex { $0.tenant == tenant && $0.kind == kind } ?? self.routes.firstIndex { $0.tenant == "*" && $0.kind == kind }
    }

    private static func provider(
        _ name: String, _ value: JSONValue, environment: [String: String], directory: URL
    ) throws(ProviderConfigurationError) -> Provider {
        let field = "providers.\(name)"
        guard case .object = value else { throw ProviderConfigurationError(field: field, message: "an object is required") }
        guard let apiName = value["api"]?.stringValue, let api = API(rawValue: apiName) else {
            let known = API.allCases.map(\.rawValue).joined(separator: ", ")
            throw ProviderConfigurationError(field: "\(field).api", message: "one of \(known) is required")
        }
        guard let baseURL = value["base_url"]?.stringValue, baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw ProviderConfigurationError(field: "\(field).base_url", message: "an http or https URL is required")
        }
        var endpoint = ProviderEndpoint(baseURL: baseURL, apiKey: try Self.apiKey(field, value, environment: environment, directory: directory))
        if let seconds = try Self.seconds("\(field).first_byte_timeout_s", value["first_byte_timeout_s"]) { endpoint.firstByteTimeout = seconds }
        if let seconds = try Self.seconds("\(field).idle_timeout_s", value["idle_timeout_s"]) { endpoint.idleTimeout = seconds }
        var maxConcurrent: Int?
        if let cap = value["max_concurrent"] {
            guard let count = cap.intValue, count > 0 else {
                throw ProviderConfigurationError(field: "\(field).max_concurrent", message: "a positive whole number is required")
            }
            maxConcurrent = count
        }
        return Provider(name: name, api: api, endpoint: endpoint, maxConcurrent: maxConcurrent)
    }

    /// Exactly one of `api_key` (only for the simulator and local servers), `api_key_env` and `api_key_file`.
    private static func apiKey(
        _ field: String, _ value: JSONValue, environment: [String: String], directory: URL
    ) throws(ProviderConfigurationError) -> String {
        let given = ["api_key", "api_key_env", "api_key_file"].filter { value[$0] != nil }
        guard given.count == 1 else {
            throw ProviderConfigurationError(field: field, message: "exactly one of api_key, api_key_env and api_key_file is required")
        }
        if let key = value["api_key"]?.stringValue, !key.isEmpty { return key }
        if let variable = value["api_key_env"]?.stringValue {
            guard let key = environment[variable], !key.isEmpty else {
                throw ProviderConfigurationError(field: "\(field).api_key_env", message: "the environment variable \(variable) is not set")
            }
            return key
        }
        if let path = value["api_key_file"]?.stringValue {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            guard let text = try? String(contentsOf: url, encoding: .utf8), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ProviderConfigurationError(field: "\(field).api_key_file", message: "\(url.path) cannot be read or is empty")
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        throw ProviderConfigurationError(field: "\(field).\(given[0])", message: "a non-empty string is required")
    }

    private static func seconds(_ field: String, _ value: JSONValue?) throws(ProviderConfigurationError) -> Duration? {
        guard let value else { return nil }
        guard let seconds = value.numberValue, seconds > 0 else {
            throw ProviderConfigurationError(field: field, message: "a positive number of seconds is required")
        }
        return .seconds(seconds)
    }

    private static func moderation(_ value: JSONValue?, providers: [String: Provider]) throws(ProviderConfigurationError) -> (String, String)? {
        guard let value else { return nil }
        guard let provider = value["provider"]?.stringValue, providers[provider]?.api == .openAIChat else {
            throw ProviderConfigurationError(field: "moderation.provider", message: "the name of an openai_chat provider above is required")
        }
        guard let model = value["model"]?.stringValue, !model.isEmpty else {
            throw ProviderConfigurationError(field: "moderation.model", message: "a moderation model id is required")
        }
        return (provider, model)
    }

    private static func route(_ index: Int, _ value: JSONValue, providers: [String: Provider]) throws(ProviderConfigurationError) -> Route {
        let field = "routes[\(index)]"
        guard let tenant = value["tenant"]?.stringValue, !tenant.isEmpty else {
            throw ProviderConfigurationError(field: "\(field).tenant", message: "a tenant id, or * for every tenant, is required")
        }
        guard let kind = value["kind"]?.stringValue, !kind.isEmpty else {
            throw ProviderConfigurationError(field: "\(field).kind", message: "a job kind is required")
        }
        guard let steps = value["models"]?.arrayValue, !steps.isEmpty else {
            throw ProviderConfigurationError(field: "\(field).models", message: "an array of at least one model is required")
        }
        let models = try steps.enumerated().map { (position, step) throws(ProviderConfigurationError) in
            guard let provider = step["provider"]?.stringValue, providers[provider] != nil else {
                throw ProviderConfigurationError(field: "\(field).models[\(position)].provider", message: "the name of a provider above is required")
            }
            guard let model = step["model"]?.stringValue, !model.isEmpty else {
                throw ProviderConfigurationError(field: "\(field).models[\(position)].model", message: "a model id is required")
            }
            return (provider: provider, model: model)
        }
        return Route(tenant: tenant, kind: kind, models: models)
    }
}

/// A provider configuration file that cannot be used, naming the field at fault.
public struct ProviderConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The field's path, e.g. `providers.anthropic.api_key_env`.
    public let field: String
    public let message: String

    public var description: String { self.field.isEmpty ? self.message : "\(self.field): \(self.message)" }
}
