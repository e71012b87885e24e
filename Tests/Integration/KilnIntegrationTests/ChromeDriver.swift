import Foundation
import Glibc
import Spawning
import Testing

/// Debian's `chromedriver` (from `chromium-driver`) on a free port of its choosing, for the console's browser tests;
/// ``stop()`` ends it, and so does dropping it.
final class ChromeDriver {
    private let process: SpawnedProcess
    /// Where its WebDriver API answers.
    let url: String

    /// Whether the browser tests can run: `chromium` and `chromedriver` are on PATH (CI installs both; see
    /// deploy/local/install-deps.sh).
    static var isInstalled: Bool {
        ["chromium", "chromedriver"].allSatisfy { program in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { directory in
                FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)")
            }
        }
    }

    /// Starts `chromedriver --port=0` and waits for the line that names the port it bound.
    init() async throws {
        process = try SpawnedProcess(["chromedriver", "--port=0"], stdout: .pipe, stderr: .null)
        guard let output = process.output else { throw TestFailure("chromedriver started without its stdout") }
        var port: Int?
        for await line in output.readLines() {
            if let range = line.range(of: "started successfully on port ") {
                port = Int(line[range.upperBound...].trimmingCharacters(in: CharacterSet.decimalDigits.inverted))
                break
            }
        }
        guard let port else {
            process.signal(SIGKILL)
            throw TestFailure("chromedriver ended without saying which port it listens on")
        }
        url = "http://127.0.0.1:\(port)"
    }

    /// Ends chromedriver (and the browsers it started) and waits for it.
    func stop() async {
        process.signal(SIGTERM)
        _ = await process.exit()
    }
}
