// swift-tools-version:6.1
import PackageDescription

// Kiln's server: one package whose targets sit in Sources/ and Tests/ by layer, one folder a layer, each read top to
// bottom below in the order the layers build on each other. ARCHITECTURE.md says what each target owns, and
// .ci/check-architecture.py holds it to this file and to the imports. The apps' client and the vocabulary it shares
// with the server (the kinds' inputs and results) are a package of their own, KilnClient/, which this one depends on.

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

extension Target.Dependency {
    /// A module of the client package (KilnClient/): the apps' vocabulary, which the server decodes as the apps encode it.
    static func clientPackage(_ module: String) -> Self { .product(name: module, package: "KilnClient") }

    static var argumentParser: Self { .product(name: "ArgumentParser", package: "swift-argument-parser") }
    static var atomics: Self { .product(name: "Atomics", package: "swift-atomics") }
    static var crypto: Self { .product(name: "Crypto", package: "swift-crypto") }
    static var cryptoExtras: Self { .product(name: "CryptoExtras", package: "swift-crypto") }
    static var histogram: Self { .product(name: "Histogram", package: "hdrhistogram-swift") }
    static var httpTypes: Self { .product(name: "HTTPTypes", package: "swift-http-types") }
    static var hummingbird: Self { .product(name: "Hummingbird", package: "hummingbird") }
    static var jwtKit: Self { .product(name: "JWTKit", package: "jwt-kit") }
    static var logging: Self { .product(name: "Logging", package: "swift-log") }
    static var mcp: Self { .product(name: "MCP", package: "swift-sdk") }
    static var metrics: Self { .product(name: "Metrics", package: "swift-metrics") }
    static var mustache: Self { .product(name: "Mustache", package: "swift-mustache") }
    static var nioCore: Self { .product(name: "NIOCore", package: "swift-nio") }
    static var nioEmbedded: Self { .product(name: "NIOEmbedded", package: "swift-nio") }
    static var nioHTTP1: Self { .product(name: "NIOHTTP1", package: "swift-nio") }
    static var nioPosix: Self { .product(name: "NIOPosix", package: "swift-nio") }
    static var prometheus: Self { .product(name: "Prometheus", package: "swift-prometheus") }
    static var serviceLifecycle: Self { .product(name: "ServiceLifecycle", package: "swift-service-lifecycle") }
    static var swiftASN1: Self { .product(name: "SwiftASN1", package: "swift-asn1") }
    static var unixSignals: Self { .product(name: "UnixSignals", package: "swift-service-lifecycle") }
    static var x509: Self { .product(name: "X509", package: "swift-certificates") }
}

/// One folder of `Sources/` or `Tests/`: a layer, each of its targets in a folder of its own name inside it.
struct Layer {
    let folder: String

    func library(
        _ name: String, _ dependencies: [Target.Dependency] = [], exclude: [String] = [], resources: [Resource]? = nil,
        plugins: [Target.PluginUsage] = []
    ) -> Target {
        .target(
            name: name, dependencies: dependencies, path: "\(folder)/\(name)", exclude: exclude, resources: resources,
            swiftSettings: swiftSettings, plugins: plugins)
    }

    /// A build tool plugin: a command SwiftPM runs before compiling the targets that use it.
    func buildToolPlugin(_ name: String) -> Target {
        .plugin(name: name, capability: .buildTool(), path: "\(folder)/\(name)")
    }

    func program(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: dependencies, path: "\(folder)/\(name)", swiftSettings: swiftSettings)
    }

    func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [], resources: [Resource]? = nil) -> Target {
        .testTarget(
            name: name, dependencies: dependencies, path: "\(folder)/\(name)", exclude: exclude, resources: resources,
            swiftSettings: swiftSettings)
    }

    /// A C library from Debian's `-dev` packages: a `module.modulemap` and a `shim.h` in the target's folder.
    func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
        .systemLibrary(name: name, path: "\(folder)/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
    }
}

let libraries = Layer(folder: "Sources/Libraries")
let domain = Layer(folder: "Sources/Domain")
let queue = Layer(folder: "Sources/Queue")
let media = Layer(folder: "Sources/Media")
let work = Layer(folder: "Sources/Work")
let edges = Layer(folder: "Sources/Edges")
let developerTools = Layer(folder: "Sources/DeveloperTools")
let programs = Layer(folder: "Sources/Programs")
let testSupport = Layer(folder: "Tests/Support")
let librariesTests = Layer(folder: "Tests/Libraries")
let domainTests = Layer(folder: "Tests/Domain")
let queueTests = Layer(folder: "Tests/Queue")
let mediaTests = Layer(folder: "Tests/Media")
let workTests = Layer(folder: "Tests/Work")
let edgesTests = Layer(folder: "Tests/Edges")
let developerToolsTests = Layer(folder: "Tests/DeveloperTools")
let integrationTests = Layer(folder: "Tests/Integration")

let package = Package(
    name: "kiln",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "kiln", targets: ["kiln"]),
        .executable(name: "kiln-dev", targets: ["kiln-dev"]),
    ],
    dependencies: [
        .package(path: "KilnClient"),
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
        // MARK: Sources/Libraries
        // The C libraries from Debian's -dev packages, each with a tiny shim of prefixed non-variadic functions, Kiln's Swift
        // clients of them, and the few parts those clients share. No domain type: none of them knows a job, a tenant or a key.

        libraries.systemLibrary("CHiredis", pkgConfig: "hiredis", apt: ["libhiredis-dev"]),
        libraries.systemLibrary("CLibPQ", pkgConfig: "libpq", apt: ["libpq-dev"]),
        libraries.systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        libraries.systemLibrary("CPangoCairo", pkgConfig: "pangocairo", apt: ["libpango1.0-dev", "libcairo2-dev"]),
        libraries.systemLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
        // Child processes by posix_spawn, with what Glibc does not show Swift (Foundation's Process.run crashes now and
        // then on Linux, see SpawnedProcess).
        libraries.library("CSpawning"),
        // epoll and eventfd, which Glibc's module does not show, for EventPolling.
        libraries.library("CEventPolling"),
        // A value behind a lock, for state shared across threads: the standard library's Mutex needs macOS 15.
        libraries.library("Locking"),
        // The mark of a backing service's outage (Redis, PostgreSQL, the object store), which each client's error adopts.
        libraries.library("ServiceFailures"),
        // Blocking work (renders, files) on threads of its own, off Swift's cooperative pool.
        libraries.library("BlockingWork", ["Locking", .nioCore, .nioPosix]),
        // A level-triggered epoll set and an eventfd: what the libcurl and libpq event loops share.
        libraries.library("EventPolling", ["CEventPolling"]),
        libraries.library("Spawning", ["Locking", "CSpawning"]),
        // Redis over hiredis on the event loops, with automatic pipelining; Redis Cluster; typed script calls.
        libraries.library("RedisClient", ["Locking", "CHiredis", "ServiceFailures", .nioCore, .nioPosix]),
        // PostgreSQL over libpq, non-blocking and pipelined on one thread per pool.
        libraries.library("PostgresClient", ["Locking", "CLibPQ", "EventPolling", "ServiceFailures", .nioCore]),
        // HTTP/1.1 and HTTP/2 over libcurl's multi interface, on one thread per client.
        libraries.library("CurlClient", ["Locking", "CCurl", "EventPolling"]),
        // S3-compatible object storage over libcurl, signed with libcurl's own SigV4.
        libraries.library("S3Client", ["CurlClient", "ServiceFailures", .crypto]),

        // MARK: Sources/Domain
        // The domain: ids, jobs, kinds, Redis key names, tenants' policies and end users' identities, as values and rules
        // without servers. The apps' vocabulary below it (KilnJSON, JobVocabulary and the apps' inputs) is the client package's.

        // The domain's vocabulary: ids, jobs, kinds (and Kiln's own diag.* inputs), failures, records, standing; it
        // re-exports JobVocabulary.
        domain.library("KilnCore", [.clientPackage("JobVocabulary"), .clientPackage("KilnJSON"), .crypto]),
        // Every Redis key name, for Swift and (as generated helpers) for the Lua scripts.
        domain.library("KilnKeys", ["KilnCore"]),
        // Tenants' admission policies: tiers, daily limits, costs, cooldowns, abuse thresholds.
        domain.library("KilnPolicy", ["Locking", "KilnCore", .clientPackage("KilnJSON")]),
        // End users' identities, verified before Redis is touched: App Store JWS, JWTs, devices, trusted servers.
        domain.library("KilnIdentity", ["Locking", "KilnCore", "KilnPolicy", .crypto, .x509, .swiftASN1, .jwtKit]),

        // MARK: Sources/Queue
        // The queue and the record: the Redis queue engine, PostgreSQL and the object store, admission's decision, privacy.

        // The Redis queue engine and its Lua scripts.
        queue.library(
            "KilnQueue", ["Locking", "KilnCore", "KilnKeys", "KilnPolicy", "RedisClient", "ServiceFailures"], resources: [.copy("Scripts")]),
        // PostgreSQL as the record; the object backends (a directory or S3) and streamed reads of objects.
        queue.library(
            "KilnStore",
            [
                "Locking", .clientPackage("KilnJSON"), "BlockingWork", "KilnCore", "PostgresClient", "S3Client", "CurlClient", "ServiceFailures",
                .logging,
            ]),
        // Admission's decision (kind × applicant × standing × now → charge or refusal), the standing lookup and the
        // quota reconciler; the enqueue script applies the charge atomically.
        queue.library("KilnAdmission", ["KilnCore", "KilnPolicy", "KilnQueue", "KilnStore"]),
        // Privacy: the retention purge and identity erasure across Redis, PostgreSQL and the object store.
        queue.library("KilnPrivacy", ["KilnCore", "KilnPolicy", "KilnQueue", "KilnStore", .logging]),

        // MARK: Sources/Media
        // Drawing, ChatTale's videos, the documents and the web reader's pages.

        // Cairo and Pango drawing shared by the videos, documents and share cards: surfaces, canvas, typesetting.
        media.library("Drawing", ["CPangoCairo"]),
        // The web reader's HTML that needs no drawing library: the page frame and its style, Talevonia's palette and mark as
        // SVG, the notice pages the API serves, and the XML escaping the documents' writers share. The API node serves the
        // notice pages without linking Cairo, Pango or zlib.
        media.library("WebReader"),
        // ChatTale's live-typing chat videos: the timeline, the Cairo/Pango renderer, the sound track and the ffmpeg encoder.
        media.library("ChatVideo", ["Locking", .clientPackage("ChatTaleInputs"), "BlockingWork", "CPangoCairo", "Drawing", "Spawning"]),
        // Documents and sharing: one document model written as PDF, DOCX, EPUB and text; share cards; the web reader page.
        media.library("Documents", [.clientPackage("TalevoniaInputs"), "CPangoCairo", "CZlib", "KilnCore", "Drawing", "WebReader"]),

        // MARK: Sources/Work
        // The work: AI providers over libcurl, the worker's loop, and every job kind with its handler.

        // AI providers over libcurl: wire formats, streaming, the retry table.
        work.library("KilnProviders", ["Locking", "CurlClient", "KilnCore", .clientPackage("KilnJSON"), "KilnKeys", "KilnPolicy", "RedisClient"]),
        // The worker: claims, leases renewed in batches, settlements, drain on shutdown; the kinds' handlers plug into it.
        work.library(
            "KilnWorker",
            ["Locking", "KilnCore", .clientPackage("KilnJSON"), "KilnQueue", "KilnStore", "ServiceFailures", .logging, .metrics, .serviceLifecycle]),
        // Every job kind, defined once (Kinds/), and their handlers: provider calls, rendering, the diagnostics.
        work.library(
            "KilnHandlers",
            [
                "Locking", .clientPackage("ChatTaleInputs"), .clientPackage("DocumentInputs"), .clientPackage("ImageOptions"),
                .clientPackage("JoanieInputs"), .clientPackage("KilnJSON"), .clientPackage("TalevoniaInputs"), .clientPackage("VeramoInputs"),
                .clientPackage("WorldArchitectInputs"), "BlockingWork", "KilnCore", "KilnQueue", "KilnStore", "KilnWorker", "KilnProviders",
                "ChatVideo", "Documents", "Drawing", "KilnPolicy",
            ], resources: [.copy("Prompts")]),

        // MARK: Sources/Edges
        // The edges: the HTTP API (with MCP and WorldArchitect's campaigns) and the operators' console.

        // The HTTP API v1: submissions, jobs and their events, uploads, quotas, identity, partners, shares, webhooks, MCP and
        // WorldArchitect's campaigns; openapi.json describes it.
        edges.library(
            "KilnAPI",
            [
                "Locking", .clientPackage("KilnJSON"), "KilnAdmission", "KilnCore", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore",
                "KilnPrivacy", "ServiceFailures", "WebReader", .clientPackage("WorldArchitectInputs"), .clientPackage("DocumentInputs"), .hummingbird,
                .httpTypes, .mcp, .nioCore, .nioHTTP1, .logging, .metrics, .serviceLifecycle,
            ], resources: [.copy("openapi.json")]),
        // The operators' web console (`kiln console`): sign-in, sessions, CSRF, the audit log and the pages, rendered with
        // Mustache on the server.
        edges.library(
            "KilnConsole",
            [
                "Locking", "KilnAdmission", "KilnCore", "KilnPolicy", "KilnQueue", "KilnStore", "PostgresClient", "ServiceFailures", "WebReader",
                .hummingbird,
                .httpTypes, .mustache, .nioCore, .crypto, .logging,
            ], resources: [.copy("Templates"), .copy("Static")]),

        // MARK: Sources/DeveloperTools
        // The developer tools' libraries, kept out of the production image: the provider simulator and the load generators.

        // An HTTP server that answers the providers' APIs in their real wire formats, with every fault on demand.
        developerTools.library(
            "ProviderSimulator",
            ["BlockingWork", "Locking", .clientPackage("KilnJSON"), .hummingbird, .httpTypes, .nioCore, .nioPosix, .logging]),
        // HTTP/1.1 for the load generators, on one epoll thread: cheap a request, since they share the cores they measure.
        developerTools.library("LoadGeneration", ["EventPolling", "Locking"]),
        // The quota load test's plan and audit, without I/O, so the audit's rules are tested without servers.
        developerTools.library("LoadTesting", ["KilnPolicy"]),

        // MARK: Sources/Programs
        // The programs: what the API node and the worker are assembled from, what both programs share, and the programs.

        // Writes the commit the tree is built from into BuildInfo before every build.
        programs.buildToolPlugin("BuildCommit"),
        // Which Kiln this is: the release's version, named here only, and the commit, for --version, /healthz, the
        // build-info metric and the workers' heartbeats.
        programs.library("BuildInfo", plugins: ["BuildCommit"]),
        // The API node's dependencies and the worker, built from one Redis namespace, PostgreSQL and the object store: the
        // same for `kiln` and the tests.
        programs.library(
            "KilnAssembly",
            [
                "CurlClient", "KilnAPI", "KilnHandlers", "KilnIdentity", "KilnPolicy", "KilnPrivacy", "KilnProviders", "KilnQueue", "KilnStore",
                "KilnWorker", "PostgresClient", .logging, .serviceLifecycle,
            ]),
        // What the two programs share and nothing else uses: the connection options and the runtime they open, logging and
        // metrics set up once per process. Only the programs read the environment and flags; the other libraries take
        // configuration structs.
        programs.library(
            "KilnCommandLine",
            [
                "BuildInfo",
                "KilnAssembly", "KilnQueue", "KilnStore", "CurlClient", "PostgresClient", "RedisClient", "ServiceFailures", .atomics, .nioCore,
                .nioPosix, .argumentParser, .serviceLifecycle, .logging, .metrics, .prometheus,
            ]),
        // The production program: the API, the worker, migrations and the operators' commands.
        programs.program(
            "kiln",
            [
                "BuildInfo",
                "KilnAdmission", "KilnAssembly", "KilnCommandLine", "KilnCore", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore", "KilnAPI",
                "KilnWorker", "KilnHandlers", "KilnProviders", "KilnPrivacy", "KilnConsole", "CurlClient", "PostgresClient", .argumentParser,
                .serviceLifecycle, .unixSignals, .hummingbird, .logging,
            ]),
        // The tools that stay out of the production image: the provider simulator, the benchmarks and the load tests. They
        // start API nodes and workers from the `kiln` program built beside them.
        programs.program(
            "kiln-dev",
            [
                "BuildInfo",
                "Locking", "KilnCommandLine", "KilnCore", "KilnKeys", .clientPackage("KilnJSON"), "KilnPolicy", "KilnPrivacy", "KilnQueue",
                "KilnStore", "KilnWorker",
                "KilnProviders", "ProviderSimulator", "LoadTesting", "LoadGeneration", .clientPackage("ChatTaleInputs"),
                .clientPackage("TalevoniaInputs"), "ChatVideo", "Documents", "Drawing", "CurlClient", "EventPolling", "PostgresClient", "RedisClient",
                "Spawning", .argumentParser,
                .logging, .serviceLifecycle, .unixSignals, .histogram, .hummingbird, .crypto,
            ]),

        // MARK: Tests/Support
        // Test support: fixtures and fakes that several test targets share.

        // Certificate authorities and signed tokens made up for tests, shared by the identity and integration tests.
        testSupport.library("IdentityFixtures", [.crypto, .cryptoExtras, .x509, .swiftASN1]),
        // moto's S3 server with signature checks, shared by the S3 client's, the stores' and the integration tests.
        testSupport.library("S3Fixtures", ["S3Client", "CurlClient", "Spawning"], exclude: ["moto_server.py"]),
        // What the video, document and web reader tests check pictures and files with: command-line tools, pictures.
        testSupport.library("RenderingFixtures", ["CPangoCairo", "Spawning"]),
        // The queue and the records as a worker sees them, in memory (fakes of WorkSource and WorkerRecords), shared by the
        // worker's and the handlers' tests.
        testSupport.library("WorkerFakes", ["Locking", "KilnCore", "KilnQueue", "KilnWorker"]),

        // MARK: Tests/Libraries
        // Tests of the libraries.

        librariesTests.tests("LockingTests", ["Locking"]),
        librariesTests.tests("BlockingWorkTests", ["Locking", "BlockingWork"]),
        librariesTests.tests("SpawningTests", ["Spawning"]),
        // FixtureServer runs Fixtures/server.py, found beside its source.
        librariesTests.tests("CurlClientTests", ["CurlClient", "Locking", "Spawning"], exclude: ["Fixtures/server.py"]),
        librariesTests.tests("S3ClientTests", ["S3Client", "CurlClient", "S3Fixtures"]),

        // MARK: Tests/Domain
        // Tests of the domain, without servers.

        domainTests.tests(
            "KilnCoreTests",
            [
                "KilnCore", .clientPackage("KilnJSON"), .clientPackage("ChatTaleInputs"), .clientPackage("WorldArchitectInputs"),
                .clientPackage("DocumentInputs"),
            ]),
        domainTests.tests("KilnPolicyTests", ["KilnPolicy", "KilnCore", .clientPackage("KilnJSON")]),
        domainTests.tests("KilnIdentityTests", ["KilnIdentity", "KilnPolicy", "KilnCore", "IdentityFixtures", .crypto, .x509, .swiftASN1]),

        // MARK: Tests/Queue
        // Tests of the queue and the record.

        // Each Lua script's header, KEYS/ARGV bindings and replies against its Swift contract, without Redis.
        queueTests.tests("ScriptContractTests", ["KilnQueue", "KilnKeys", "KilnProviders", "RedisClient", "KilnCore", "KilnPolicy"]),
        queueTests.tests(
            "KilnStoreTests", ["KilnStore", "PostgresClient", "KilnCore", .clientPackage("KilnJSON"), "S3Client", "CurlClient", "S3Fixtures"]),
        // Admission's decision on the checked-in policies, without servers.
        queueTests.tests("KilnAdmissionTests", ["KilnAdmission", "KilnCore", "KilnPolicy", "KilnQueue"]),

        // MARK: Tests/Media
        // Tests of the media: the pictures, files and videos as a person would check them.

        mediaTests.tests(
            "ChatVideoTests", ["Locking", "ChatVideo", "CPangoCairo", "Drawing", .clientPackage("ChatTaleInputs"), "RenderingFixtures"],
            resources: [.copy("Golden")]),
        mediaTests.tests(
            "DocumentsTests",
            [.clientPackage("TalevoniaInputs"), "BlockingWork", "CPangoCairo", "Documents", "Drawing", "KilnCore", "RenderingFixtures", "WebReader"],
            resources: [.copy("Golden")]),

        // MARK: Tests/Work
        // Tests of the work, over the worker's fakes and the provider simulator.

        workTests.tests(
            "KilnProvidersTests",
            [
                "Locking", "KilnProviders", "ProviderSimulator", "CurlClient", "KilnCore", .clientPackage("KilnJSON"), "KilnKeys", "KilnPolicy",
                "RedisClient", .logging, .hummingbird, .serviceLifecycle,
            ]),
        // The worker's loop over the in-memory queue and records, without servers.
        workTests.tests(
            "KilnWorkerTests",
            ["KilnWorker", "KilnQueue", "KilnCore", .clientPackage("KilnJSON"), "KilnHandlers", "WorkerFakes", .logging, .serviceLifecycle]),
        // The kinds' single list, the catalog and worker registries derived from it, and handlers run over the worker's
        // fakes with a scripted text provider, without servers.
        workTests.tests(
            "KilnHandlersTests",
            [
                "Locking", "KilnHandlers", "KilnWorker", "KilnCore", .clientPackage("KilnJSON"), "KilnProviders", "KilnQueue", "KilnStore",
                .clientPackage("TalevoniaInputs"), "WorkerFakes",
            ]),

        // MARK: Tests/Edges
        // Tests of the edges, driven through the router without a socket; the client held to the server's description.

        // Every route over in-memory fakes of the stores and the Redis roles, driven through the router without a socket;
        // openapi.json held to the answers the routes write.
        edgesTests.tests(
            "KilnAPITests",
            [
                "Locking", "KilnAPI", "KilnAdmission", "KilnAssembly", "KilnCore", "KilnIdentity", .clientPackage("KilnJSON"), "KilnPolicy",
                "KilnPrivacy", "KilnQueue", "KilnStore", "PostgresClient", "RedisClient", "ServiceFailures", "IdentityFixtures", .hummingbird,
                .httpTypes, .logging, .nioCore, .nioEmbedded,
            ]),
        // The console's pages rendered from their templates, its forms and its links, without servers.
        edgesTests.tests("KilnConsoleTests", ["KilnConsole", "KilnCore", "KilnQueue", "KilnStore"]),
        // The apps' client held to the server: its routes, statuses and answer types against openapi.json.
        edgesTests.tests("ClientAgreementTests", [.clientPackage("KilnClient"), .clientPackage("KilnJSON")]),

        // MARK: Tests/DeveloperTools
        // Tests of the developer tools.

        developerToolsTests.tests(
            "ProviderSimulatorTests",
            ["ProviderSimulator", "CurlClient", "RenderingFixtures", .clientPackage("KilnJSON"), .logging, .hummingbird, .nioCore, .nioPosix]),
        developerToolsTests.tests("LoadGenerationTests", ["LoadGeneration", .hummingbird, .logging, .nioCore]),
        developerToolsTests.tests("LoadTestingTests", ["LoadTesting", "KilnPolicy", "KilnCore"]),

        // MARK: Tests/Integration
        // The integration tests: API nodes, workers and the simulator against the real Redis and PostgreSQL.

        integrationTests.tests(
            "KilnIntegrationTests",
            [
                "Locking", .clientPackage("ChatTaleInputs"), .clientPackage("KilnJSON"), .clientPackage("WorldArchitectInputs"), "KilnAdmission",
                .clientPackage("KilnClient"), .clientPackage("KilnClientExamples"), "KilnAssembly", "KilnCommandLine", "KilnConsole", "KilnCore",
                "KilnKeys", "KilnPolicy", "KilnIdentity", "KilnQueue", "KilnStore", "KilnAPI", "KilnWorker", "RedisClient", "PostgresClient",
                "CurlClient", "IdentityFixtures", "KilnProviders", "KilnHandlers", "ProviderSimulator", "S3Client", "S3Fixtures", "KilnPrivacy",
                "RenderingFixtures", "Spawning", .mcp, .hummingbird, .httpTypes, .logging, .nioCore, .serviceLifecycle,
            ]),

    ]
)
