// swift-tools-version:6.1
import PackageDescription

// KilnClient: what an app adds to talk to Kiln. It depends on nothing but Foundation, so an app that adds it resolves no
// other package. The kinds' inputs and results live here, and Kiln's server depends on this folder by path, so the two
// sides compile the same types. Apps reach it as a repository of its own, cut from this folder (deploy/client/split.sh).

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KilnClient",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        // What the apps import: the API's client, which re-exports the kinds' inputs and results.
        .library(name: "KilnClient", targets: ["KilnClient"]),
        // The vocabulary the server shares with the apps, one product a module, for Kiln's server.
        .library(name: "KilnJSON", targets: ["KilnJSON"]),
        .library(name: "JobVocabulary", targets: ["JobVocabulary"]),
        .library(name: "ImageOptions", targets: ["ImageOptions"]),
        .library(name: "ChatTaleInputs", targets: ["ChatTaleInputs"]),
        .library(name: "WorldArchitectInputs", targets: ["WorldArchitectInputs"]),
        .library(name: "TalevoniaInputs", targets: ["TalevoniaInputs"]),
        .library(name: "VeramoInputs", targets: ["VeramoInputs"]),
        .library(name: "JoanieInputs", targets: ["JoanieInputs"]),
        .library(name: "DocumentInputs", targets: ["DocumentInputs"]),
        // The documentation's examples, which Kiln's integration tests run against a live server.
        .library(name: "KilnClientExamples", targets: ["KilnClientExamples"]),
    ],
    targets: [
        // JSON as a value: the reader, JSON Schema validation of answers, fields followed as they stream, prompt templates.
        .target(name: "KilnJSON", swiftSettings: swiftSettings),
        // What the apps speak with the server: a kind's input protocol and its checks (InputError, closed sets of words,
        // upload ids), job ids and states.
        .target(name: "JobVocabulary", swiftSettings: swiftSettings),
        // The image kinds' presets that Veramo's and Talevonia's inputs share: styles and aspect ratios; their result, MadeImage.
        .target(name: "ImageOptions", dependencies: ["JobVocabulary"], swiftSettings: swiftSettings),
        // ChatTale's inputs: the conversation and export settings of video.chat_export, with its pacing and colours;
        // chat.generate. And the two kinds' results, which the handlers encode and the client decodes.
        .target(name: "ChatTaleInputs", dependencies: ["JobVocabulary"], swiftSettings: swiftSettings),
        // WorldArchitect's inputs: campaign.open and campaign.turn, the game state and the checks of a turn's update; the
        // campaign export. And the two kinds' results.
        .target(name: "WorldArchitectInputs", dependencies: ["JobVocabulary", "KilnJSON"], swiftSettings: swiftSettings),
        // Talevonia's inputs: text.continue and text.opening, image.illustrate and image.cover, the reading path,
        // share.card and share.publish. And the kinds' results.
        .target(name: "TalevoniaInputs", dependencies: ["JobVocabulary", "ImageOptions"], swiftSettings: swiftSettings),
        // Veramo's input: image.generate, from text or from the caller's uploads.
        .target(name: "VeramoInputs", dependencies: ["JobVocabulary", "ImageOptions"], swiftSettings: swiftSettings),
        // Joanie's inputs: story.from_drawings and story.continue, and the story they make.
        .target(name: "JoanieInputs", dependencies: ["JobVocabulary"], swiftSettings: swiftSettings),
        // The input of document.export, which WorldArchitect and Talevonia share: a campaign or a reading path, and the
        // format; its result.
        .target(
            name: "DocumentInputs", dependencies: ["JobVocabulary", "TalevoniaInputs", "WorldArchitectInputs"],
            swiftSettings: swiftSettings),
        // The apps' client of the HTTP API, on Foundation alone (FoundationNetworking on Linux): the kinds' typed inputs
        // and results, the event stream resumed by itself, retries within a budget, one error type.
        .target(
            name: "KilnClient",
            dependencies: [
                "JobVocabulary", "ChatTaleInputs", "DocumentInputs", "ImageOptions", "JoanieInputs", "TalevoniaInputs",
                "VeramoInputs", "WorldArchitectInputs",
            ],
            swiftSettings: swiftSettings),
        // One example an app, compiled here, shown in the documentation's articles, and run by Kiln's integration tests.
        .target(name: "KilnClientExamples", dependencies: ["KilnClient"], swiftSettings: swiftSettings),

        .testTarget(name: "KilnJSONTests", dependencies: ["KilnJSON"], swiftSettings: swiftSettings),
        // The client without a server: the event parser, the retry rule, the articles' examples against the compiled ones.
        .testTarget(name: "KilnClientTests", dependencies: ["KilnClient"], swiftSettings: swiftSettings),
    ]
)

// The DocC plugin only where the documentation is built (`KILN_DOCC=1 swift package generate-documentation`), so an
// app that adds the client resolves no package for it.
if Context.environment["KILN_DOCC"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"))
}
