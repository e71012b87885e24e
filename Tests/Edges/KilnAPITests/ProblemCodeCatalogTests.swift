import Foundation
import KilnIdentity
import KilnJSON
import KilnQueue
import Testing

/// Every `code` the API can answer with is the same list in three places: what the server's sources construct, the
/// `code` enum of `openapi.json`'s `Problem`, and docs/api.md's table of errors. A code added to one and not the others
/// fails here, whichever was forgotten.
@Suite struct ProblemCodeCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The codes the server constructs: every literal code of a `Problem` in `Sources/Edges/KilnAPI`, every identity
    /// refusal's and every quota denial's.
    static func serverCodes() throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/Edges/KilnAPI")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        // `Problem(.status, "code"` and, in its initialisers, `self.init(.status, "code"`, over lines.
        let construction = try Regex(#"(?:Problem|self\.init)\(\s*[\w.]+,\s*"([a-z_]+)""#)
        var codes = Set(IdentityError.codes).union(QuotaDenial.Reason.allCases.map(\.rawValue))
        for case let file as URL in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: construction) {
                if let code = match.output[1].substring { codes.insert(String(code)) }
            }
        }
        return codes
    }

    /// The codes of docs/api.md's error table: the backticked names in its second column.
    static func readmeCodes() throws -> Set<String> {
        let readme = try String(contentsOf: root.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "| status | code | when |"), "docs/api.md has its error table")
        let code = try Regex(#"`([a-z_]+)`"#)
        var codes: Set<String> = []
        for line in lines[(header + 2)...].prefix(while: { $0.hasPrefix("|") }) {
            let column = line.split(separator: "|", omittingEmptySubsequences: false)[2]
            for match in column.matches(of: code) { codes.insert(String(match.output[1].substring ?? "")) }
        }
        return codes
    }

    static func documentCodes() throws -> Set<String> {
        let values = OpenAPIConformanceTests.document["components"]?["schemas"]?["Problem"]?["properties"]?["code"]?["enum"]
        guard case .array(let codes)? = values else { throw TestFailure("Problem.code has no enum in openapi.json") }
        return Set(codes.compactMap(\.stringValue))
    }

    @Test func theServerTheDocumentAndTheReadmeListTheSameCodes() throws {
        let server = try Self.serverCodes()
        let document = try Self.documentCodes()
        let readme = try Self.readmeCodes()
        #expect(server.count > 50, "the sources were read: \(server.sorted())")
        #expect(server.subtracting(document).sorted() == [], "codes the server answers that openapi.json does not list")
        #expect(document.subtracting(server).sorted() == [], "codes openapi.json lists that the server never answers")
        #expect(server.subtracting(readme).sorted() == [], "codes the server answers that docs/api.md's table does not list")
        #expect(readme.subtracting(server).sorted() == [], "codes docs/api.md's table lists that the server never answers")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
