import Foundation
import KilnJSON
import RenderingFixtures
import Testing

/// `document.export` through the API and a worker: WorldArchitect's campaign summary and Talevonia's reading path in
/// every format, read back with the tools a person would use.
@Suite struct DocumentJobTests {
    static func campaign(image: String?) -> String {
        let picture = image.map { #","image":"\#($0)""# } ?? ""
        return #"""
            {"title":"The Dragon of Émberfall","player":"Aria’s player","scenes":[
              {"text":"The party meets at the Gilded Griffin.\n\n\#(DocumentFixtures.tricky)"},
              {"title":"The woods","text":"They follow the map into the Whispering Woods."\#(picture)},
              {"number":7,"text":"At the ruins, a dragon wakes."}],
             "state":{"character":{"name":"Aria Zoë","class":"rogue","level":3,"hp":18,"max_hp":24,"inventory":["dagger","rope"]},
                      "npcs":[{"name":"Brannoc","hp":30,"max_hp":30,"attitude":"friendly"}],
                      "location":"Émberfall ruins","locations":["Gilded Griffin","Émberfall ruins"],"combat":{"active":false,"combatants":[]}}}
            """#
    }

    @Test func aCampaignBecomesAPDFWhoseTextScenesAndPictureAreAllThere() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let map = try await DocumentFixtures.upload(harness, client, try await DocumentFixtures.picture(color: "green"))
            let (id, job) = try await DocumentFixtures.run(
                harness, client, kind: "document.export", input: #"{"format":"pdf","campaign":\#(Self.campaign(image: map))}"#)
            try #require(job["status"]?.stringValue == "succeeded", "\(job)")
            #expect(job["result"]?["artifact"]?.stringValue == "campaign.pdf")
            #expect(job["result"]?["images"] == .number(1))
            let directory = try TemporaryDirectory()
            let pdf = try await DocumentFixtures.artifact(harness, client, id, "campaign.pdf", into: directory.path)
            #expect(pdf.contentType == "application/pdf")
            let text = String(decoding: try await Command.run(["pdftotext", "-enc", "UTF-8", pdf.path, "-"]), as: UTF8.self)
            for expected in [
                "The Dragon of Émberfall", "Scene #1", "Scene #2: The woods", "Scene #7", "Zoë’s café — “hello”", "Character sheet", "Aria Zoë",
                "Brannoc", "They follow the map into the Whispering Woods.",
            ] {
                #expect(text.contains(expected), "the PDF's text has no \(expected)")
            }
            let images = String(decoding: try await Command.run(["pdfimages", "-list", pdf.path]), as: UTF8.self)
            #expect(images.contains("320   200"), "the scene's picture is not embedded at its size: \(images)")
        }
    }

    @Test func aCampaignBecomesADOCXThatWordProcessorsRead() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let map = try await DocumentFixtures.upload(
                harness, client, try await DocumentFixtures.picture(color: "green", codec: "mjpeg"), contentType: "image/jpeg")
            let (id, job) = try await DocumentFixtures.run(
                harness, client, kind: "document.export", input: #"{"format":"docx","campaign":\#(Self.campaign(image: map))}"#)
            try #require(job["status"]?.stringValue == "succeeded", "\(job)")
            let directory = try TemporaryDirectory()
            let docx = try await DocumentFixtures.artifact(harness, client, id, "campaign.docx", into: directory.path)
            #expect(docx.contentType == "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
            let script = """
                import docx, json, sys
                d = docx.Document(sys.argv[1])
                print(json.dumps({"paragraphs": [[p.style.name, p.text] for p in d.paragraphs], "pictures": len(d.inline_shapes),
                                  "cells": [c.text for t in d.tables for r in t.rows for c in r.cells]}))
                """
            let read = try #require(
                JSONValue.parse(String(decoding: try await Command.run(["/usr/bin/python3", "-c", script, docx.path]), as: UTF8.self)))
            let paragraphs =
                read["paragraphs"]?.arrayValue?.compactMap { pair -> (String, String)? in
                    guard let pair = pair.arrayValue, pair.count == 2, let style = pair[0].stringValue, let text = pair[1].stringValue else {
                        return nil
                    }
                    return (style, text)
                } ?? []
            #expect(paragraphs.contains { $0 == ("Title", "The Dragon of Émberfall") })
            #expect(paragraphs.filter { $0.0 == "Heading 1" }.map(\.1).prefix(3) == ["Scene #1", "Scene #2: The woods", "Scene #7"])
            #expect(paragraphs.contains { $0.1 == DocumentFixtures.tricky })
            #expect(read["pictures"] == .number(1))
            #expect(read["cells"]?.arrayValue?.contains(.string("Aria Zoë")) == true)
        }
    }

    @Test func aStoryBecomesAnEPUBAndPlainText() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let cover = try await DocumentFixtures.upload(
                harness, client, try await DocumentFixtures.picture(color: "purple", width: 400, height: 600))
            let story = DocumentFixtures.story(cover: cover, illustration: nil)
            let directory = try TemporaryDirectory()

            let (epubID, epubJob) = try await DocumentFixtures.run(
                harness, client, kind: "document.export", input: #"{"format":"epub","story":\#(story)}"#)
            try #require(epubJob["status"]?.stringValue == "succeeded", "\(epubJob)")
            let epub = try await DocumentFixtures.artifact(harness, client, epubID, "story.epub", into: directory.path)
            #expect(epub.contentType == "application/epub+zip")
            let entries = String(decoding: try await Command.run(["unzip", "-Z1", epub.path]), as: UTF8.self).split(separator: "\n")
            #expect(entries.first == "mimetype")
            #expect(entries.contains { $0.hasSuffix("cover.png") })
            let chapters = String(decoding: try await Command.run(["unzip", "-p", epub.path, "*.xhtml"]), as: UTF8.self)
            #expect(chapters.contains(DocumentFixtures.tricky))

            let (textID, textJob) = try await DocumentFixtures.run(
                harness, client, kind: "document.export", input: #"{"format":"txt","story":\#(story)}"#)
            try #require(textJob["status"]?.stringValue == "succeeded", "\(textJob)")
            let text = try await DocumentFixtures.artifact(harness, client, textID, "story.txt", into: directory.path)
            #expect(text.contentType == "text/plain; charset=utf-8")
            let contents = try String(contentsOfFile: text.path, encoding: .utf8)
            for expected in ["The Lantern Keeper", "The lighthouse", "Élodie climbed the stairs.", DocumentFixtures.tricky, "Part 2", "Morning"] {
                #expect(contents.contains(expected), "the text has no \(expected)")
            }
        }
    }

    @Test(arguments: [
        ("document.export", #"{"format":"odt","story":{"title":"T","nodes":[{"text":"x"}]}}"#, "input.format"),
        ("document.export", #"{"format":"pdf"}"#, "input"),
        ("document.export", #"{"format":"pdf","story":{"title":"T","nodes":[]}}"#, "input.story.nodes"),
        (
            "document.export", #"{"format":"pdf","campaign":{"title":"T","scenes":[{"text":"x","image":"map.png"}]}}"#,
            "input.campaign.scenes[0].image"
        ),
        ("document.export", #"{"format":"pdf","story":{"title":"T","language":"english!","nodes":[{"text":"x"}]}}"#, "input.story.language"),
        ("share.card", #"{"story":{"title":"T","nodes":[{"text":"x"}]},"sizes":["story","story"]}"#, "input.sizes"),
        ("share.card", #"{"story":{"title":"","nodes":[{"text":"x"}]}}"#, "input.story.title"),
        ("share.publish", #"{"story":{"title":"T","nodes":[{"text":"x"}]},"expires_in_days":0}"#, "input.expires_in_days"),
        ("share.publish", #"{"story":{"title":"T","cover":"../../etc/passwd","nodes":[{"text":"x"}]}}"#, "input.story.cover"),
    ])
    func aBadInputIsA400NamingTheField(kind: String, input: String, field: String) async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let reply = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"\#(kind)","input":\#(input)}"#))
            #expect(reply.status == 400)
            #expect(reply.json?["field"]?.stringValue == field, "\(String(describing: reply.json))")
        }
    }

    @Test func anUploadThatIsNotAPictureOrIsTooLargeFailsTheExportForGood() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            // A PNG whose header declares 32767×32767 pixels: 4 GB decoded.
            var huge = try await DocumentFixtures.picture(color: "blue")
            huge.replaceSubrange(16..<24, with: [0, 0, 0x7F, 0xFF, 0, 0, 0x7F, 0xFF])
            for (bytes, code) in [(Array("not a picture".utf8), "upload_not_an_image"), (huge, "image_too_large")] {
                let upload = try await DocumentFixtures.upload(harness, client, bytes)
                let (_, job) = try await DocumentFixtures.run(
                    harness, client, kind: "document.export",
                    input: #"{"format":"pdf","story":\#(DocumentFixtures.story(cover: upload, illustration: nil))}"#)
                #expect(job["status"]?.stringValue == "failed", "\(job)")
                #expect(job["error"]?["code"]?.stringValue == code)
            }
        }
    }

}
