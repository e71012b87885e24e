import Foundation
import KilnClient

// Three continuations of a story, streamed from a Kiln, as an app asks for them: `ExampleApp BASE-URL API-KEY IDENTITY`,
// the identity vouched for by the key (a tenant with no policy, as deploy/local/up.sh's `demo`, takes it so).
let arguments = CommandLine.arguments
guard arguments.count == 4, let baseURL = URL(string: arguments[1]) else {
    print("usage: ExampleApp BASE-URL API-KEY IDENTITY")
    exit(2)
}
let identity = arguments[3]
let kiln = Kiln(KilnConfiguration(baseURL: baseURL, apiKey: arguments[2]) { .trustedServer(identity: identity) })
let path = TextContinueInput(title: "Gull Point", lastNodeText: "Mira took the lighthouse job on a Tuesday.")
let job = try await kiln.submit(.textContinue, input: path)
var deltas = 0
let result = try await kiln.result(of: job) { event in
    if case .delta = event { deltas += 1 }
}
print("job \(job.id): \(deltas) streamed deltas, \(result.continuations.count) continuations")
for passage in result.continuations { print("- \(passage.text.prefix(80))…") }
