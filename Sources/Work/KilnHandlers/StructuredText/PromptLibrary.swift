import Foundation
import KilnCore
import KilnJSON

/// The prompt templates shipped with the handlers (`Prompts/<kind>.v<N>.txt`), parsed once. A kind names the exact
/// version it uses, so changing a prompt is a new file and a deliberate switch, and results say which one made them.
enum PromptLibrary {
    /// Every template in the bundle by id (`text.continue.v1`), or why it could not be read.
    private static let templates: [String: Result<PromptTemplate, PromptTemplate.Failure>] = {
        guard let directory = Bundle.module.url(forResource: "Prompts", withExtension: nil),
            let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return [:] }
        var templates: [String: Result<PromptTemplate, PromptTemplate.Failure>] = [:]
        for file in files where file.pathExtension == "txt" {
            let id = file.deletingPathExtension().lastPathComponent
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                templates[id] = .failure(PromptTemplate.Failure(description: "\(id): not UTF-8 text"))
                continue
            }
            templates[id] = Result { () throws(PromptTemplate.Failure) in try PromptTemplate(id: id, text: text) }
        }
        return templates
    }()

    /// The template `id`; a missing or broken one fails the job for good, since no retry will mend it.
    static func template(_ id: String) throws -> PromptTemplate {
        switch templates[id] {
        case .success(let template)?:
            return template
        case .failure(let failure)?:
            throw JobFailure.permanent(code: "prompt_template_invalid", message: failure.description)
        case nil:
            throw JobFailure.permanent(code: "prompt_template_invalid", message: "no prompt template \(id)")
        }
    }

    /// The template `id` rendered with `values`; values that do not fit it fail the job for good, as a broken
    /// template does.
    static func render(_ id: String, with values: JSONValue) throws -> PromptTemplate.Rendered {
        let template = try template(id)
        do {
            return try template.render(values)
        } catch {
            throw JobFailure.permanent(code: "prompt_template_invalid", message: error.description)
        }
    }
}
