// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "kiln",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "kiln", targets: ["kiln"]),
        .executable(name: "kiln-dev", targets: ["kiln-dev"]),
        // What the five apps import: the API's client, with the kinds' inputs and results.
        .library(name: "KilnClient", targets: ["KilnClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", exact: "0.12.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // C libraries from Debian's -dev packages, with tiny non-variadic shims.
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Safe Swift over each C library; no domain types.
        // Child processes started with posix_spawn (Foundation's Process.run crashes now and then on Linux, see SpawnedProcess).
        .target(name: "CSpawning"),
        // epoll and eventfd, which Glibc's module does not show, for EventPolling.
        .target(name: "CEventPolling"),
        .target(
            name: "Spawning",
            dependencies: ["Locking", "CSpawning"],
            swiftSettings: swiftSettings
        ),
        // Blocking work (renders, files) on threads of its own, off Swift's cooperative pool.
        .target(
            name: "BlockingWork",
            dependencies: ["Locking", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        // A value behind a lock, for state shared across threads: the standard library's Mutex needs macOS 15, the package
        // declares 14.
        .target(
            name: "Locking",
            swiftSettings: swiftSettings
        ),
        // The mark of a backing service's outage (Redis, PostgreSQL, the object store), which each client's error adopts.
        .target(
            name: "ServiceFailures",
            swiftSettings: swiftSettings
        ),
        // A level-triggered epoll set and an eventfd: what the libcurl and libpq event loops share.
        .target(
            name: "EventPolling",
            dependencies: ["CEventPolling"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RedisClient",
            dependencies: [
                "Locking", "CHiredis", "ServiceFailures", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostgresClient",
            dependencies: ["Locking", "CLibPQ", "EventPolling", "ServiceFailures", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CurlClient",
            dependencies: ["Locking", "CCurl", "EventPolling"],
            swiftSettings: swiftSettings
        ),

        // S3-compatible object storage over libcurl, signed with libcurl's own SigV4.
        .target(
            name: "S3Client",
            dependencies: ["CurlClient", "ServiceFailures", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),

        // AI providers over libcurl: wire formats, streaming, the retry table.
        .target(
            name: "KilnProviders",
            dependencies: ["Locking", "CurlClient", "KilnCore", "KilnJSON", "KilnKeys", "KilnPolicy", "RedisClient"],
            swiftSettings: swiftSettings
        ),
        // An HTTP server that answers the providers' APIs in their real wire formats, with every fault on demand.
        .target(
            name: "ProviderSimulator",
            dependencies: [
                "BlockingWork", "Locking", "KilnJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // JSON as a value: the reader, JSON Schema validation of answers, fields followed as they stream, prompt templates.
        .target(
            name: "KilnJSON",
            swiftSettings: swiftSettings
        ),
        // What the apps speak with the server, with nothing but Foundation under it, so KilnClient shares it: a kind's input
        // protocol and its checks (InputError, closed sets of words, upload ids), job ids and states.
        .target(
            name: "JobVocabulary",
            swiftSettings: swiftSettings
        ),
        // The domain's vocabulary: ids, jobs, kinds (and Kiln's own diag.* inputs), failures, records, standing; it
        // re-exports JobVocabulary.
        .target(
            name: "KilnCore",
            dependencies: ["JobVocabulary", "KilnJSON", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // The image kinds' presets that Veramo's and Talevonia's inputs share: styles and aspect ratios; their result, MadeImage.
        .target(
            name: "ImageOptions",
            dependencies: ["JobVocabulary"],
            swiftSettings: swiftSettings
        ),
        // ChatTale's inputs: the conversation and export settings of video.chat_export, with its pacing and colours; chat.generate.
        // And the two kinds' results, which the handlers encode and the client decodes.
        .target(
            name: "ChatTaleInputs",
            dependencies: ["JobVocabulary"],
            swiftSettings: swiftSettings
        ),
        // WorldArchitect's inputs: campaign.open and campaign.turn, the game state and the checks of a turn's update; the campaign export.
        // And the two kinds' results, which the handlers encode and the client decodes.
        .target(
            name: "WorldArchitectInputs",
            dependencies: ["JobVocabulary", "KilnJSON"],
            swiftSettings: swiftSettings
        ),
        // Talevonia's inputs: text.continue and text.opening, image.illustrate and image.cover, the reading path, share.card and share.publish.
        // And the kinds' results, which the handlers encode and the client decodes.
        .target(
            name: "TalevoniaInputs",
            dependencies: ["JobVocabulary", "ImageOptions"],
            swiftSettings: swiftSettings
        ),
        // Veramo's input: image.generate, from text or from the caller's uploads.
        .target(
            name: "VeramoInputs",
            dependencies: ["JobVocabulary", "ImageOptions"],
            swiftSettings: swiftSettings
        ),
        // Joanie's inputs: story.from_drawings and story.continue, and the story they make.
        .target(
            name: "JoanieInputs",
            dependencies: ["JobVocabulary"],
            swiftSettings: swiftSettings
        ),
        // The input of document.export, which WorldArchitect and Talevonia share: a campaign or a reading path, and the format; its
        // result.
        .target(
            name: "DocumentInputs",
            dependencies: ["JobVocabulary", "TalevoniaInputs", "WorldArchitectInputs"],
            swiftSettings: swiftSettings
        ),
        // Every Redis key name, for Swift and (as generated helpers) for the Lua scripts.
        .target(
            name: "KilnKeys",
            dependencies: ["KilnCore"],
            swiftSettings: swiftSettings
        ),
        // Tenants' admission policies: tiers, daily limits, costs, cooldowns, abuse thresholds.
        .target(
            name: "KilnPolicy",
            dependencies: ["Locking", "KilnCore", "KilnJSON"],
            swiftSettings: swiftSettings
        ),
        // End users' identities, verified before Redis is touched: App Store JWS, JWTs, devices, trusted servers.
        .target(
            name: "KilnIdentity",
            dependencies: [
                "Locking", "KilnCore", "KilnPolicy",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Redis queue engine and its Lua scripts.
        .target(
            name: "KilnQueue",
            dependencies: ["KilnCore", "KilnKeys", "KilnPolicy", "RedisClient"],
            resources: [.copy("Scripts")],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL as the record; the object backends (a directory or S3) and streamed reads of objects.
        .target(
            name: "KilnStore",
            dependencies: [
                "Locking", "KilnJSON", "BlockingWork", "KilnCore", "PostgresClient", "S3Client", "CurlClient", "ServiceFailures",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Privacy: the retention purge and identity erasure across Redis, PostgreSQL and the object store.
        .target(
            name: "KilnPrivacy",
            dependencies: ["KilnCore", "KilnPolicy", "KilnQueue", "KilnStore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Admission's decision (kind × applicant × standing × now → charge or refusal), the standing lookup and the
        // quota reconciler; the enqueue script applies the charge atomically.
        .target(
            name: "KilnAdmission",
            dependencies: ["KilnCore", "KilnPolicy", "KilnQueue", "KilnStore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KilnAPI",
            dependencies: [
                "Locking", "KilnJSON", "KilnAdmission", "KilnCore", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore", "KilnPrivacy",
                "ServiceFailures",
                "WebReader", "WorldArchitectInputs", "DocumentInputs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KilnWorker",
            dependencies: [
                "Locking", "KilnCore", "KilnJSON", "KilnQueue", "KilnStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Cairo and Pango drawing shared by the videos, documents and share cards: surfaces, canvas, typesetting.
        .target(
            name: "Drawing",
            dependencies: ["CPangoCairo"],
            swiftSettings: swiftSettings
        ),
        // ChatTale's live-typing chat videos: the timeline, the Cairo/Pango renderer, the sound track and the ffmpeg encoder.
        .target(
            name: "ChatVideo",
            dependencies: ["Locking", "ChatTaleInputs", "BlockingWork", "CPangoCairo", "Drawing", "Spawning"],
            swiftSettings: swiftSettings
        ),
        // The web reader's HTML that needs no drawing library: the page frame and its style, Talevonia's palette and mark as
        // SVG, the notice pages the API serves, and the XML escaping the documents' writers share. The API node serves the
        // notice pages without linking Cairo, Pango or zlib.
        .target(
            name: "WebReader",
            swiftSettings: swiftSettings
        ),
        // Documents and sharing: one document model written as PDF, DOCX, EPUB and text; share cards; the web reader page.
        .target(
            name: "Documents",
            dependencies: ["TalevoniaInputs", "CPangoCairo", "CZlib", "KilnCore", "Drawing", "WebReader"],
            swiftSettings: swiftSettings
        ),
        // Every job kind, defined once (Kinds/), and their handlers: provider calls, rendering, the diagnostics.
        .target(
            name: "KilnHandlers",
            dependencies: [
                "Locking", "ChatTaleInputs", "DocumentInputs", "ImageOptions", "JoanieInputs", "KilnJSON", "TalevoniaInputs", "VeramoInputs",
                "WorldArchitectInputs", "BlockingWork",
                "KilnCore", "KilnQueue", "KilnStore", "KilnWorker", "KilnProviders", "ChatVideo", "Documents", "Drawing", "KilnPolicy",
            ],
            resources: [.copy("Prompts")],
            swiftSettings: swiftSettings
        ),
        // The apps' client of the HTTP API, on Foundation alone (FoundationNetworking on Linux): the kinds' typed inputs
        // (the server's own) and results, the event stream resumed by itself, retries within a budget, one error type.
        .target(
            name: "KilnClient",
            dependencies: [
                "JobVocabulary", "ChatTaleInputs", "DocumentInputs", "ImageOptions", "JoanieInputs", "TalevoniaInputs", "VeramoInputs",
                "WorldArchitectInputs",
            ],
            swiftSettings: swiftSettings
        ),
        // docs/ios-client.md's examples, one per app, compiled with the package and run end to end by the integration tests.
        .target(
            name: "KilnClientExamples",
            dependencies: ["KilnClient"],
            swiftSettings: swiftSettings
        ),
        // HTTP/1.1 for the load generators, on one epoll thread: cheap a request, since they share the cores they measure.
        .target(
            name: "LoadGeneration",
            dependencies: ["EventPolling", "Locking"],
            swiftSettings: swiftSettings
        ),
        // The quota load test's plan and audit, without I/O, so the audit's rules are tested without servers.
        .target(
            name: "LoadTesting",
            dependencies: ["KilnPolicy"],
            swiftSettings: swiftSettings
        ),
        // The API node's dependencies and the worker, built from one Redis namespace, PostgreSQL and the object store: the
        // same for `kiln` and the tests.
        .target(
            name: "KilnAssembly",
            dependencies: [
                "CurlClient", "KilnAPI", "KilnHandlers", "KilnIdentity", "KilnPolicy", "KilnPrivacy", "KilnProviders", "KilnQueue", "KilnStore",
                "KilnWorker", "PostgresClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The operators' web console (`kiln console`): sign-in, sessions, CSRF, the audit log and the pages, rendered with
        // Mustache on the server.
        .target(
            name: "KilnConsole",
            dependencies: [
                "KilnAdmission", "KilnCore", "KilnPolicy", "KilnQueue", "KilnStore", "PostgresClient", "ServiceFailures", "WebReader",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Templates"), .copy("Static")],
            swiftSettings: swiftSettings
        ),
        // What the two programs share and nothing else uses: the connection options and the runtime they open, logging and
        // metrics set up once per process. Only the programs read the environment and flags; the other libraries take
        // configuration structs.
        .target(
            name: "KilnCommandLine",
            dependencies: [
                "KilnAssembly", "KilnQueue", "KilnStore", "CurlClient", "PostgresClient", "RedisClient", "ServiceFailures",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // The production program: the API, the worker, migrations and the operators' commands.
        .executableTarget(
            name: "kiln",
            dependencies: [
                "KilnAdmission",
                "KilnAssembly", "KilnCommandLine", "KilnCore", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore", "KilnAPI", "KilnWorker",
                "KilnHandlers",
                "KilnProviders", "KilnPrivacy", "KilnConsole", "CurlClient", "PostgresClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The tools that stay out of the production image: the provider simulator, the benchmarks and the load tests. They
        // start API nodes and workers from the `kiln` program built beside them.
        .executableTarget(
            name: "kiln-dev",
            dependencies: [
                "Locking", "KilnCommandLine", "KilnCore", "KilnJSON", "KilnPolicy", "KilnQueue", "KilnStore", "KilnWorker", "KilnProviders",
                "ProviderSimulator",
                "LoadTesting", "LoadGeneration", "ChatTaleInputs", "TalevoniaInputs", "ChatVideo", "Documents", "Drawing", "CurlClient",
                "RedisClient", "Spawning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The client without a server: the event parser, the retry rule, its routes against openapi.json, the document's
        // examples against the compiled ones.
        .testTarget(
            name: "KilnClientTests",
            dependencies: ["KilnClient", "KilnClientExamples", "KilnJSON"],
            swiftSettings: swiftSettings
        ),
        // The console's pages rendered from their templates, its forms and its links, without servers.
        .testTarget(
            name: "KilnConsoleTests",
            dependencies: ["KilnConsole", "KilnCore", "KilnQueue", "KilnStore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnJSONTests",
            dependencies: ["KilnJSON"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnCoreTests",
            dependencies: ["KilnCore", "KilnJSON", "ChatTaleInputs", "WorldArchitectInputs", "DocumentInputs"],
            swiftSettings: swiftSettings
        ),
        // The queue and the records as a worker sees them, in memory (fakes of WorkSource and WorkerRecords), shared by the
        // worker's and the handlers' tests.
        .target(
            name: "WorkerFakes",
            dependencies: ["Locking", "KilnCore", "KilnQueue", "KilnWorker"],
            path: "Tests/WorkerFakes",
            swiftSettings: swiftSettings
        ),
        // The worker's loop over the in-memory queue and records, without servers.
        .testTarget(
            name: "KilnWorkerTests",
            dependencies: [
                "KilnWorker", "KilnQueue", "KilnCore", "KilnJSON", "KilnHandlers", "WorkerFakes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BlockingWorkTests",
            dependencies: ["Locking", "BlockingWork"],
            swiftSettings: swiftSettings
        ),
        // Admission's decision on the checked-in policies, without servers.
        .testTarget(
            name: "KilnAdmissionTests",
            dependencies: ["KilnAdmission", "KilnCore", "KilnPolicy", "KilnQueue"],
            swiftSettings: swiftSettings
        ),
        // Every route over in-memory fakes of the stores and the Redis roles, driven through the router without a socket;
        // openapi.json held to the answers the routes write.
        .testTarget(
            name: "KilnAPITests",
            dependencies: [
                "Locking", "KilnAPI", "KilnAdmission", "KilnAssembly", "KilnCore", "KilnIdentity", "KilnJSON", "KilnPolicy", "KilnPrivacy",
                "KilnQueue",
                "KilnStore", "PostgresClient", "RedisClient", "ServiceFailures", "IdentityFixtures",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The kinds' single list, the catalog and worker registries derived from it, and handlers run over the worker's
        // fakes with a scripted text provider, without servers.
        .testTarget(
            name: "KilnHandlersTests",
            dependencies: [
                "Locking", "KilnHandlers", "KilnWorker", "KilnCore", "KilnJSON", "KilnProviders", "KilnQueue", "KilnStore", "TalevoniaInputs",
                "WorkerFakes",
            ],
            swiftSettings: swiftSettings
        ),
        // Each Lua script's header, KEYS/ARGV bindings and replies against its Swift contract, without Redis.
        .testTarget(
            name: "ScriptContractTests",
            dependencies: ["KilnQueue", "KilnKeys", "KilnProviders", "RedisClient", "KilnCore", "KilnPolicy"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnPolicyTests",
            dependencies: ["KilnPolicy", "KilnCore", "KilnJSON"],
            swiftSettings: swiftSettings
        ),
        // Certificate authorities and signed tokens made up for tests, shared by the identity and integration tests.
        .target(
            name: "IdentityFixtures",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/IdentityFixtures",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnIdentityTests",
            dependencies: [
                "KilnIdentity", "KilnPolicy", "KilnCore", "IdentityFixtures",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LoadGenerationTests",
            dependencies: [
                "LoadGeneration", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LoadTestingTests",
            dependencies: ["LoadTesting", "KilnPolicy", "KilnCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SpawningTests",
            dependencies: ["Spawning"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CurlClientTests",
            dependencies: ["CurlClient", "Locking", "Spawning"],
            // Run as a program by FixtureServer, found beside its source.
            exclude: ["Fixtures/server.py"],
            swiftSettings: swiftSettings
        ),
        // moto's S3 server with signature checks, shared by the S3 client's, the stores' and the integration tests.
        .target(
            name: "S3Fixtures",
            dependencies: ["S3Client", "CurlClient", "Spawning"],
            path: "Tests/S3Fixtures",
            exclude: ["moto_server.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "S3ClientTests",
            dependencies: ["S3Client", "CurlClient", "S3Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProviderSimulatorTests",
            dependencies: [
                "ProviderSimulator", "CurlClient", "RenderingFixtures", "KilnJSON", .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnProvidersTests",
            dependencies: [
                "Locking", "KilnProviders", "ProviderSimulator", "CurlClient", "KilnCore", "KilnJSON", "KilnKeys", "KilnPolicy", "RedisClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the video, document and web reader tests check pictures and files with: command-line tools, pictures.
        .target(
            name: "RenderingFixtures",
            dependencies: ["CPangoCairo", "Spawning"],
            path: "Tests/RenderingFixtures",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ChatVideoTests",
            dependencies: ["Locking", "ChatVideo", "ChatTaleInputs", "RenderingFixtures"],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DocumentsTests",
            dependencies: ["TalevoniaInputs", "BlockingWork", "Documents", "Drawing", "KilnCore", "RenderingFixtures", "WebReader"],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LockingTests",
            dependencies: ["Locking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnStoreTests",
            dependencies: ["KilnStore", "PostgresClient", "KilnCore", "KilnJSON", "S3Client", "CurlClient", "S3Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KilnIntegrationTests",
            dependencies: [
                "Locking", "ChatTaleInputs", "KilnJSON", "WorldArchitectInputs", "KilnAdmission", "KilnClient", "KilnClientExamples",
                "KilnAssembly", "KilnCommandLine", "KilnConsole", "KilnCore", "KilnKeys", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore",
                "KilnAPI",
                "KilnWorker",
                "RedisClient",
                "PostgresClient",
                "CurlClient", "IdentityFixtures", "KilnProviders", "KilnHandlers", "ProviderSimulator", "S3Client", "S3Fixtures", "KilnPrivacy",
                "RenderingFixtures", "Spawning",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
