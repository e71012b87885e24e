import Foundation
import KilnClient

// Three continuations of a story, streamed from a Kiln as an app would ask for them: `ExampleApp URL API-KEY DEVICE`.
let arguments = CommandLine.arguments
guard arguments.count == 4, let baseURL = URL(string: arguments[1]) else {
    print("usage: ExampleApp BASE-URL API-KEY DEVICE")
    exit(2)
}
let kiln = Kiln(KilnConfiguration(baseURL: baseURL, apiKey: arguments[2], device: arguments[3]) { .anonymousDevice })
let path = TextContinueInput(title: "Gull Point", lastNodeText: "Mira took the lighthouse job on a Tuesday.")
let job = try await kiln.submit(.textContinue, input: path)
var deltas = 0
let result = try await kiln.result(of: job) { event in
    if case .delta = event { deltas += 1 }
}
print("job \(job.id): \(deltas) streamed deltas, \(result.continuations.count) continuations")
for passage in result.continuations { print("- \(passage.text.prefix(80))…") }
