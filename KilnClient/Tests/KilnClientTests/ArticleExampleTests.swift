import Foundation
import Testing

/// The documentation's articles show code the package compiles: each Swift block of KilnClient.docc is in
/// KilnClientExamples, whose functions Kiln's integration tests run against a server.
@Suite struct ArticleExampleTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Lines without their indentation, blank lines dropped: a block may be indented differently in an article.
    static func lines(_ text: Substring) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func swiftBlocks() throws -> [Substring] {
        let catalog = package.appendingPathComponent("Sources/KilnClient/KilnClient.docc")
        return try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted().flatMap { name in
            let article = try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
            return article.components(separatedBy: "```swift\n").dropFirst().map { Substring($0.components(separatedBy: "```")[0]) }
        }
    }

    @Test func everySwiftBlockOfTheArticlesIsCompiledExampleCode() throws {
        let examples = Self.lines(
            Substring(
                try String(
                    contentsOf: Self.package.appendingPathComponent("Sources/KilnClientExamples/AppExamples.swift"), encoding: .utf8)))
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 7, "the articles show the package's manifest, the setup and one example per app")
        for block in blocks where !block.contains(".package(url:") {
            let code = Self.lines(block)
            let found = examples.indices.contains { start in Array(examples[start...].prefix(code.count)) == code }
            #expect(found, "not in AppExamples.swift:\n\(block)")
        }
    }
}
