import Foundation
import Testing

/// docs/ios-client.md shows code the package compiles: each of its Swift blocks is in KilnClientExamples, whose
/// functions the integration tests run against a Kiln.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Lines without their indentation, blank lines dropped: a block may be indented differently in the document.
    static func lines(_ text: Substring) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func everySwiftBlockOfTheGuideIsCompiledExampleCode() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/ios-client.md"), encoding: .utf8)
        let examples = Self.lines(
            Substring(
                try String(contentsOf: Self.root.appendingPathComponent("KilnClient/Sources/KilnClientExamples/AppExamples.swift"), encoding: .utf8)))
        let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { Substring($0.components(separatedBy: "```")[0]) }
        #expect(blocks.count >= 6, "the guide shows the setup and one example per app")
        for block in blocks where !block.contains(".package(url:") {
            let code = Self.lines(block)
            let found = examples.indices.contains { start in Array(examples[start...].prefix(code.count)) == code }
            #expect(found, "not in AppExamples.swift:\n\(block)")
        }
    }
}
