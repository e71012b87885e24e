import ArgumentParser
import CurlClient
import Documents
import Drawing
import Foundation
import Histogram
import KilnCommandLine
import KilnCore
import KilnStore
import TalevoniaInputs

/// `kiln-dev bench documents`: issue 7's three targets in one run — a 200-page campaign PDF (under 2 s), a share card
/// in each size (under 100 ms), and the web reader's page served by a running API node (p99 under 5 ms). Prints
/// figures.
struct DocumentBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents", abstract: "Campaign PDF, share cards and the web reader's page; prints figures.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "Scenes of the campaign (about 1.08 pages each).") var scenes = 188
    @Option(help: "Times each document and card is made.") var repeats = 5
    @Option(help: "Requests for the published page at each concurrency.") var requests = 8_000
    @Option(help: "How many requests for the page are in flight at once, one run each.") var concurrency = [1, 4, 16]
    @Option(help: "Port of the API the benchmark starts.") var port = 8798
    @Option(help: "Where the child processes log, and the PDF and cards are left to be looked at.") var directory = ".kiln/bench-documents"

    func run() async throws {
        guard repeats > 0, requests > 0, !concurrency.isEmpty, concurrency.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--repeats, --requests and each --concurrency must be 1 or more")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let campaign = try Self.campaign(scenes: scenes)
        var pdf: [UInt8] = []
        let pdfTimes = try (0..<repeats).map { _ in try Self.seconds { pdf = try PDFWriter().write(campaign) } }
        try Data(pdf).write(to: URL(fileURLWithPath: "\(directory)/campaign.pdf"))
        print(
            String(
                format: "campaign PDF: %d pages (%d scenes), %.0f KB; best %.2f s, median %.2f s, worst %.2f s of %d", Self.pageCount(pdf), scenes,
                Double(pdf.count) / 1000, pdfTimes.min() ?? 0, Self.median(pdfTimes), pdfTimes.max() ?? 0, repeats))
        for (name, write) in [("DOCX", { try DOCXWriter().write(campaign) }), ("EPUB", { try EPUBWriter().write(campaign, modified: Date()) })] {
            var bytes: [UInt8] = []
            let time = try Self.seconds { bytes = try write() }
            print(String(format: "campaign %@: %.0f KB in %.2f s", name, Double(bytes.count) / 1000, time))
        }

        let card = ShareCard(
            title: "The Lantern Keeper’s Daughter 🏮", summary: Self.sentences.joined(separator: " "),
            cover: try Self.picture(width: 800, height: 1200),
            byline: "by Mira · 12 parts", watermark: true)
        for size in ShareCardSize.allCases {
            var png: [UInt8] = []
            let times = try (0..<max(repeats, 20)).map { _ in try Self.seconds { png = try card.render(size) } }
            try Data(png).write(to: URL(fileURLWithPath: "\(directory)/card-\(size.rawValue).png"))
            print(
                String(
                    format: "share card %@ (%d×%d): median %.1f ms, worst %.1f ms of %d, %.0f KB", size.rawValue, size.pixels.width,
                    size.pixels.height,
                    Self.median(times) * 1000, (times.max() ?? 0) * 1000, times.count, Double(png.count) / 1000))
        }

        for run in try await servePage() {
            print(
                String(
                    format: "web reader page from the API, %d in flight: p50 %.2f ms, p99 %.2f ms, max %.2f ms; %.0f pages/s (%llu requests)",
                    run.concurrency, Double(run.latency.valueAtPercentile(50)) / 1000, Double(run.latency.valueAtPercentile(99)) / 1000,
                    Double(run.latency.max) / 1000, run.perSecond, run.latency.totalCount))
        }
    }

    /// Publishes a twelve-node story straight into the store, starts an API node, and times `requests` GETs of its page
    /// at each of the concurrencies asked for: with more in flight than the two cores serve, the time is spent queueing.
    private func servePage() async throws -> [(concurrency: Int, latency: Histogram<UInt64>, perSecond: Double)] {
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        var options = connections
        options.namespace = namespace
        let stack = BenchStack(connections: options, port: port, logDirectory: directory)
        return try await Runtime.with(options) { runtime in
            let tenant = try await stack.tenant(runtime)
            guard let owner = Identity(validating: "bench") else { throw ValidationError("bench is not an identity") }
            let store = ShareStore(pool: runtime.database, objects: runtime.objects)
            let expiresAt = Date().addingTimeInterval(3600)
            let slug = try await store.reserve(job: JobID(), tenant: tenant.id, identity: owner, expiresAt: expiresAt)
            let address = "http://127.0.0.1:\(port)/s/\(slug)"
            let story = Document(
                identifier: UUID().uuidString.lowercased(), title: "The Lantern Keeper’s Daughter", author: "Mira",
                cover: try Self.picture(width: 400, height: 600),
                sections: (1...12).map { DocumentSection(heading: "Part \($0)", blocks: Self.sentences.map(DocumentBlock.paragraph)) })
            let page = WebReaderPage(document: story, pageURL: address, cardURL: "\(address)/card.png", imageURL: { "\(address)/\($0.name)" })
            let files = story.images.map { SharedFile(name: $0.name, contentType: $0.format.mediaType, bytes: $0.data) }
            try await store.publish(slug: slug, tenant: tenant.id, html: page.html, files: files, expiresAt: expiresAt)
            let api = try await stack.startAPI(namespace: namespace)
            return try await stack.stopping([api]) {
                let client = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: concurrency.max() ?? 1))
                defer { client.shutdown() }
                let request = HTTPRequest(method: "GET", url: address)
                for _ in 0..<200 { _ = try await client.execute(request) }
                var runs: [(concurrency: Int, latency: Histogram<UInt64>, perSecond: Double)] = []
                for concurrency in self.concurrency {
                    let started = ContinuousClock.now
                    let latency = try await Self.measure(request, client: client, tasks: concurrency, requests: max(1, requests / concurrency))
                    runs.append((concurrency, latency, Double(latency.totalCount) / (ContinuousClock.now - started).seconds))
                }
                return runs
            }
        }
    }

    /// `tasks` loops of `requests` GETs each, all at once, and the latency of every one.
    private static func measure(_ request: HTTPRequest, client: HTTPClient, tasks: Int, requests: Int) async throws -> Histogram<UInt64> {
        try await withThrowingTaskGroup(of: Histogram<UInt64>.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var histogram = Histogram<UInt64>(highestTrackableValue: 10_000_000)
                    for _ in 0..<requests {
                        let start = ContinuousClock.now
                        let response = try await client.execute(request)
                        guard response.status == 200 else { throw ValidationError("the page answered \(response.status)") }
                        histogram.record(UInt64((ContinuousClock.now - start).seconds * 1_000_000))
                    }
                    return histogram
                }
            }
            var total = Histogram<UInt64>(highestTrackableValue: 10_000_000)
            for try await histogram in group { total.add(histogram) }
            return total
        }
    }

    static let sentences = [
        "Élodie climbed the lighthouse stairs — all 212 of them — and said “good evening” to the great lamp, as her father had every night.",
        "Below, the sea rolled grey and restless; a ship’s bell rang somewhere in the fog, and the gulls went quiet on the rocks.",
        "She trimmed the wick, polished the brass until her face looked back at her, and wrote the hour in the keeper’s book.",
    ]

    /// A campaign of `scenes` scenes of about 500 words, every fifth with a picture, and a character sheet.
    static func campaign(scenes: Int) throws -> Document {
        let map = try picture(width: 640, height: 400)
        let paragraph = (sentences + sentences).joined(separator: " ")
        var sections = (1...scenes).map { number in
            DocumentSection(
                heading: "Scene #\(number)",
                blocks: Array(repeating: DocumentBlock.paragraph(paragraph), count: 4) + (number % 5 == 0 ? [.image(map, caption: "The map")] : []))
        }
        sections.append(
            DocumentSection(
                heading: "Character sheet",
                blocks: [
                    .table(
                        DocumentTable(
                            header: ["Name", "Class", "Level", "HP", "Inventory"], rows: [["Aria Zoë", "Rogue", "7", "41/52", "Dagger, rope, map"]]))
                ]))
        return Document(
            identifier: UUID().uuidString.lowercased(), title: "The Dragon of Émberfall", subtitle: "A WorldArchitect campaign", sections: sections)
    }

    /// A gradient picture, as PNG.
    static func picture(width: Int, height: Int) throws -> DocumentImage {
        let surface = CairoSurface(width: width, height: height, opaque: true)
        surface.draw { canvas in
            for row in stride(from: 0, to: height, by: 8) {
                canvas.fill(
                    PixelRect(x: 0, y: row, width: width, height: 8), RGBColor(red: 0.4, green: 0.25 + 0.5 * Double(row) / Double(height), blue: 0.7))
            }
        }
        return try DocumentImage(baseName: "picture", data: try PNGEncoder.encode(surface))
    }

    /// Pages of a PDF Cairo wrote: its page tree's `/Count`.
    static func pageCount(_ pdf: [UInt8]) -> Int {
        let text = String(decoding: pdf, as: UTF8.self)
        guard let pages = text.range(of: "/Type /Pages"), let count = text[pages.upperBound...].range(of: "/Count ") else { return 0 }
        return Int(text[count.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        return (ContinuousClock.now - start).seconds
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}
