import KilnCore
import KilnHandlers
import KilnWorker
import Testing

/// Every kind is defined once, and a worker that cannot serve a kind it offers says which and why before it starts.
@Suite struct KindDefinitionTests {
    @Test func everyKindIsDefinedOnceAndTheCatalogHoldsEachOfThem() {
        let names = KindDefinition.all.map(\.kind.name)
        #expect(Set(names).count == names.count, "defined twice: \(names.filter { name in names.filter { $0 == name }.count > 1 })")
        #expect(KindDefinition.catalog.names == names.sorted())
        for definition in KindDefinition.all {
            #expect(KindDefinition.catalog[definition.kind.name]?.jobClass == definition.kind.jobClass)
            #expect(KindDefinition.catalog[definition.kind.name]?.retry == definition.kind.retry)
        }
    }

    @Test func aWorkerOfferingKindsItCannotServeNamesEachAndWhatItLacks() {
        let error = #expect(throws: UnservedKinds.self) {
            try HandlerRegistry(offering: KindDefinition.all, dependencies: HandlerDependencies())
        }
        let reasons = Dictionary(uniqueKeysWithValues: (error?.missing ?? []).map { ($0.kind, $0.reason.description) })
        #expect(reasons["text.continue"] == "needs text routes")
        #expect(reasons["image.generate"] == "needs image routes")
        #expect(reasons["document.export"] == "needs the upload store")
        #expect(reasons["diag.generate"] == "needs text routes")
        // What needs nothing from the worker is served.
        for served in ["diag.echo", "diag.sleep", "diag.fail", "video.chat_export"] { #expect(reasons[served] == nil) }
        #expect(error?.description.contains("share.publish (needs the upload store)") == true)
    }

    @Test func aWorkerOfferingWhatItCanServeHasEachKindsDefinitionAndHandler() throws {
        let offered = KindDefinition.all.filter { ["diag.echo", "video.chat_export"].contains($0.kind.name) }
        let registry = try HandlerRegistry(offering: offered, dependencies: HandlerDependencies())
        #expect(registry.names == ["diag.echo", "video.chat_export"])
        #expect(registry["video.chat_export"]?.kind.jobClass == .cpu)
        #expect(registry["video.chat_export"]?.kind.retry.maxAttempts == 2)
        #expect(registry["text.continue"] == nil)
    }

    @Test func theDiagnosticRegistryServesTheKindsThatNeedNothing() {
        #expect(HandlerRegistry.diagnostics.names == ["diag.echo", "diag.fail", "diag.sleep"])
    }
}
