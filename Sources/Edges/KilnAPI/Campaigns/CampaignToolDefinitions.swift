import Foundation
import MCP

/// WorldArchitect's MCP tools (docs/mcp.md), with the JSON Schemas of their arguments and of their structured results.
enum CampaignToolDefinitions {
    static let all: [Tool] = [
        tool(
            "create_campaign", "Create a campaign", "Opens a new campaign and writes its opening scene, streamed as progress.",
            input: """
                {"type": "object", "additionalProperties": false, "required": ["setting", "character"],
                 "properties": {
                   "title": {"type": "string", "minLength": 1, "maxLength": 200},
                   "setting": {"type": "string", "minLength": 1, "maxLength": 2000},
                   "character": {"type": "object", "additionalProperties": false, "required": ["name"],
                                 "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 80},
                                                "class": {"type": "string", "minLength": 1, "maxLength": 80},
                                                "background": {"type": "string", "minLength": 1, "maxLength": 2000}}},
                   "style": {"type": "string", "minLength": 1, "maxLength": 200},
                   "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 255}}}
                """, output: playedOutput, annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false)),
        tool(
            "process_action", "Play an action", "Plays the player's action: the next scene streams as progress, then the scene and the new state.",
            input: """
                {"type": "object", "additionalProperties": false, "required": ["campaign_id", "action"],
                 "properties": {"campaign_id": {"type": "string", "format": "uuid"},
                                "action": {"type": "string", "minLength": 1, "maxLength": 2000},
                                "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 255}}}
                """, output: playedOutput, annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false)),
        tool(
            "get_campaign_state", "Get a campaign", "The campaign: its state, its latest scenes, and whether a turn is being played.",
            input: """
                {"type": "object", "additionalProperties": false, "required": ["campaign_id"],
                 "properties": {"campaign_id": {"type": "string", "format": "uuid"}}}
                """, output: campaignOutput, annotations: .init(readOnlyHint: true, idempotentHint: true)),
        tool(
            "list_campaigns", "List campaigns", "The player's campaigns, the latest played first.",
            input: """
                {"type": "object", "additionalProperties": false,
                 "properties": {"cursor": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 100}}}
                """,
            output: """
                {"type": "object", "required": ["campaigns", "next_cursor"],
                 "properties": {"campaigns": {"type": "array", "items": {"type": "object"}}, "next_cursor": {"type": ["string", "null"]}}}
                """, annotations: .init(readOnlyHint: true, idempotentHint: true)),
        tool(
            "update_campaign", "Update a campaign", "Renames the campaign or replaces its settings; its history stays.",
            input: """
                {"type": "object", "additionalProperties": false, "required": ["campaign_id"],
                 "properties": {"campaign_id": {"type": "string", "format": "uuid"},
                                "title": {"type": "string", "minLength": 1, "maxLength": 200},
                                "settings": {"type": "object"}}}
                """, output: campaignOutput, annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true)),
        tool(
            "export_campaign", "Export a campaign", "Exports the campaign's history and character sheet as a PDF, DOCX or text file.",
            input: """
                {"type": "object", "additionalProperties": false, "required": ["campaign_id", "format"],
                 "properties": {"campaign_id": {"type": "string", "format": "uuid"}, "format": {"enum": ["pdf", "docx", "txt"]}}}
                """,
            output: """
                {"type": "object", "required": ["job_id", "uri", "content_type", "size"],
                 "properties": {"job_id": {"type": "string"}, "uri": {"type": "string"}, "content_type": {"type": "string"},
                                "size": {"type": "integer"}}}
                """, annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false)),
    ]

    private static let campaignOutput = """
        {"type": "object", "required": ["id", "title", "state", "scene_count", "status"],
         "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "settings": {"type": "object"},
                        "state": {"type": ["object", "null"]}, "scene_count": {"type": "integer"},
                        "status": {"enum": ["opening", "playing", "ready", "failed"]}, "scenes": {"type": "array"}}}
        """

    private static let playedOutput = """
        {"type": "object", "required": ["campaign", "scene"],
         "properties": {"campaign": {"type": "object"},
                        "scene": {"type": "object", "required": ["number", "narrative", "planning_block"],
                                  "properties": {"number": {"type": "integer"}, "title": {"type": ["string", "null"]},
                                                 "narrative": {"type": "string"}, "planning_block": {"type": "object"}}}}}
        """

    private static func tool(
        _ name: String, _ title: String, _ description: String, input: String, output: String, annotations: Tool.Annotations
    ) -> Tool {
        Tool(
            name: name, title: title, description: description, inputSchema: value(input), annotations: annotations,
            outputSchema: value(output))
    }

    /// A schema written as JSON text above; a typo in it fails every test that lists the tools.
    private static func value(_ json: String) -> Value {
        (try? JSONDecoder().decode(Value.self, from: Data(json.utf8))) ?? .null
    }
}
