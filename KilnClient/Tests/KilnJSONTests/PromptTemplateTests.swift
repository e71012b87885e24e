import KilnJSON
import Testing

@Suite struct PromptTemplateTests {
    static let template = """
        ## A comment, not part of any prompt.
        === system ===
        You write {{genre}} stories.
        === user ===
        Title: {{title}}
        {{#if summaries}}
        So far:
        {{#each summaries}}
        {{@number}}. {{.}}
        {{/each}}
        {{else}}
        A new story.
        {{/if}}
        Hero: {{hero.name}}, first tag {{tags.0}}; tags: {{tags}}; {{#each npcs}}{{name}} ({{hp}} hp) {{/each}}
        """

    static func json(_ text: String) throws -> JSONValue {
        try #require(JSONValue.parse(text), "not JSON: \(text)")
    }

    @Test func rendersValuesConditionsAndLoopsWithoutStrayLines() throws {
        let template = try PromptTemplate(id: "test.v1", text: Self.template)
        let rendered = try template.render(
            try Self.json(
                #"""
                {"genre": "mystery", "title": "Fog", "summaries": ["A ship.", "A bell."], "hero": {"name": "Ilse"},
                 "tags": ["sea", "night"], "npcs": [{"name": "Bran", "hp": 4}]}
                """#))
        #expect(rendered.system == "You write mystery stories.")
        #expect(
            rendered.user == """
                Title: Fog
                So far:
                1. A ship.
                2. A bell.
                Hero: Ilse, first tag sea; tags: sea, night; Bran (4 hp)
                """)
    }

    @Test func theElseBranchRendersForAnEmptyOrAbsentValue() throws {
        let template = try PromptTemplate(id: "test.v1", text: Self.template)
        let rendered = try template.render(
            try Self.json(#"{"genre": "g", "title": "T", "summaries": [], "hero": {"name": "H"}, "tags": ["t"], "npcs": []}"#))
        #expect(rendered.user.contains("A new story.") && !rendered.user.contains("So far"))
    }

    @Test func valuesAreInsertedLiterallyNeverReadAsTemplateText() throws {
        let template = try PromptTemplate(id: "test.v1", text: "=== user ===\nSay {{text}}")
        #expect(try template.render(try Self.json(#"{"text": "{{secret}} {{#if x}}"}"#)).user == "Say {{secret}} {{#if x}}")
    }

    @Test func aMissingValueIsAnErrorNotAnEmptyString() throws {
        let template = try PromptTemplate(id: "test.v1", text: "=== user ===\nHello {{nmae}}")
        #expect(throws: PromptTemplate.Failure.self) { try template.render(try Self.json(#"{"name": "Mira"}"#)) }
    }

    @Test(arguments: [
        "=== user ===\n{{#if a}}open",
        "=== user ===\n{{/each}}",
        "=== user ===\n{{#each a}}{{/if}}",
        "=== user ===\n{{else}}",
        "=== user ===\n{{a",
        "=== system ===\nonly instructions",
        "=== other ===\n",
        "text before a section\n=== user ===\n",
    ])
    func aBrokenTemplateDoesNotParse(text: String) {
        #expect(throws: PromptTemplate.Failure.self) { try PromptTemplate(id: "broken.v1", text: text) }
    }
}
