import Foundation
import Hummingbird

/// An `application/x-www-form-urlencoded` body, as the console's forms post it: each name with its values in order.
struct FormBody: Sendable {
    /// Forms are small; a larger body is refused before it is read whole.
    static let limit = 64 * 1024

    private let fields: [(name: String, value: String)]

    init(_ text: String) {
        fields = text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func read(_ request: Request) async throws -> FormBody {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw ConsoleRefusal(.contentTooLarge, "the form is larger than \(limit / 1024) KB")
        }
        return FormBody(String(buffer: buffer))
    }

    /// The first value of `name`, trimmed; nil when absent or empty.
    subscript(_ name: String) -> String? {
        fields.first { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every value of `name`, as a list of checkboxes posts them.
    func all(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }
}
