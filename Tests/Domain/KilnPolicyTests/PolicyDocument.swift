import Foundation
import KilnCore
import KilnJSON
import KilnPolicy
import Testing

/// The checked-in policy file, and variants of it with one thing changed.
enum PolicyDocument {
    static let checkedInPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("deploy/policies.json").path

    static func checkedIn() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: checkedInPath)))
    }

    /// The checked-in file with `edits` applied, parsed.
    static func parse(applying edits: [Edit]) throws -> PolicySet {
        let document = try edits.reduce(checkedIn()) { document, edit in document.replacing(edit.path, with: edit.value) }
        return try PolicySet.parse(Data(document.canonicalJSON().utf8))
    }
}

/// One change to a policy document: the value at `path` (keys from the top) set to `value`, or removed when nil.
struct Edit: Sendable {
    let path: [String]
    let value: JSONValue?

    static func set(_ path: String..., to json: String) -> Edit {
        Edit(path: path, value: JSONValue.parse(json))
    }

    static func remove(_ path: String...) -> Edit {
        Edit(path: path, value: nil)
    }
}

extension JSONValue {
    /// This document with the value at `path` replaced by `value`, or removed when `value` is nil; objects on the
    /// way are created when missing.
    func replacing(_ path: [String], with value: JSONValue?) -> JSONValue {
        guard let key = path.first else { return value ?? .null }
        var fields: [String: JSONValue] = [:]
        if case .object(let existing) = self { fields = existing }
        if path.count == 1, value == nil {
            fields[key] = nil
        } else {
            fields[key] = (fields[key] ?? .object([:])).replacing(Array(path.dropFirst()), with: value)
        }
        return .object(fields)
    }
}

extension PolicySet {
    /// The policy of `tenant`, which the test expects to be there.
    func policy(_ tenant: String) throws -> TenantPolicy {
        let id = try #require(TenantID(validating: tenant))
        return try #require(self[id])
    }
}
