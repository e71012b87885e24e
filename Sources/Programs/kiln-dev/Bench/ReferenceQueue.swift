import ArgumentParser
import Foundation
import Spawning

/// A reference queue's benchmark (`../shared/bench/sidekiq-reference.sh`), run right after Kiln's on the same machine
/// so the two rates can be compared as a ratio. The script prints a line
/// `<name>: <rate> jobs/s … (<rate> jobs/s with its boot) …`; it is shown as it is.
struct ReferenceQueue {
    let script: String
    let jobs: Int

    /// Its rate from its first job done to its last, and from starting its processes to its last job done.
    struct Rates {
        var steady: Double
        var withStart: Double
    }

    /// Runs the script for the same number of jobs. - Returns: its two rates.
    func run() async throws -> Rates {
        guard FileManager.default.isExecutableFile(atPath: script) else { throw ValidationError("--reference \(script) is not an executable script") }
        // Its output goes to a file, read once it has exited: waiting on a pipe would hold a thread for minutes.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-reference-\(UUID().uuidString).out").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let process = try SpawnedProcess([script, String(jobs)], stdout: .descriptor(output.fileDescriptor), stderr: .inherit)
        try output.close()
        let termination = await process.exit()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard termination.succeeded, let line = text.split(whereSeparator: \.isNewline).last(where: { $0.contains(" jobs/s") }) else {
            throw ValidationError("\(script) failed (status \(termination.shellStatus)): \(text)")
        }
        print(line)
        // "sidekiq: 24,123 jobs/s from its first completion to its last (22,456 jobs/s with its boot), …": the first number
        // is the steady rate, the first after "(" the rate with its start.
        func firstNumber(_ text: Substring) -> Double? {
            text.split(separator: " ").lazy.compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }.first
        }
        guard let steady = firstNumber(line), steady > 0, let open = line.firstIndex(of: "("),
            let withStart = firstNumber(line[line.index(after: open)...]), withStart > 0
        else { throw ValidationError("\(script) printed no rates: \(line)") }
        return Rates(steady: steady, withStart: withStart)
    }
}
