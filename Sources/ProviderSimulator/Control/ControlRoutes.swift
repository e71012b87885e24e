import Foundation
import Hummingbird

/// `/_simulator/…`: request counts, the scenario, and the files (images) the simulator serves.
struct ControlRoutes {
    let state: SimulatorState

    func respond(to request: inout Request, path: [String]) async throws -> Response {
        switch (request.method, path) {
        case (.get, ["stats"]):
            let counts = self.state.requestCounts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) }
            return .json(200, ["requests": .object(counts)])
        case (.get, ["scenario"]):
            return .bytes(200, Array(try JSONEncoder().encode(self.state.scenario)), contentType: "application/json")
        case (.put, ["scenario"]):
            let body = try await request.collectBody(upTo: 1 << 20)
            do {
                let scenario = try SimulatorScenario(json: Data(body.readableBytesView))
                self.state.replaceScenario(scenario)
                return .json(200, ["rules": .int(scenario.rules.count)])
            } catch {
                return .json(400, ["error": .string("not a scenario: \(error)")])
            }
        case (.get, let path) where path.count == 2 && path[0] == "files":
            guard let image = GeneratedImage(fileName: path[1]) else { return .json(404, ["error": "no such file"]) }
            return .bytes(200, image.png, contentType: "image/png")
        default:
            return .json(404, ["error": .string("no simulator route \(request.method.rawValue) \(request.uri.path)")])
        }
    }
}
