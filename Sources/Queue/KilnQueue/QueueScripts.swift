import Foundation
import KilnKeys
import RedisClient

/// The Lua scripts of `Scripts/`, read once from the bundle. Each runs as the key helpers generated from
/// ``KeySpace`` and the helpers of `common.lua` that it uses (``ScriptPrelude``), then the `KEYS` and `ARGV` bindings
/// generated from its contract, then its body.
struct QueueScripts: Sendable {
    /// The scripts, or why they could not be read: assembled once a process, on first use, not once a
    /// ``RedisNamespace``: assembling them is dear, and a process may make many (an integration test process makes
    /// hundreds).
    static let loaded = Result { try QueueScripts() }

    let enqueue: RedisScript
    let claim: RedisScript
    let settle: RedisScript
    let renew: RedisScript
    let cancel: RedisScript
    let event: RedisScript
    let recorded: RedisScript
    let replay: RedisScript
    let purge: RedisScript
    let raise: RedisScript
    let erase: RedisScript
    let forget: RedisScript
    let rename: RedisScript
    let beat: RedisScript
    let resume: RedisScript
    let held: RedisScript

    var all: [RedisScript] {
        [enqueue, claim, settle, renew, cancel, event, recorded, replay, purge, raise, erase, forget, rename, beat, resume, held]
    }

    /// Every script's contract.
    static let contracts: [any RedisScriptContract.Type] = [
        EnqueueCall.self, ClaimCall.self, SettleCall.self, RenewCall.self, CancelCall.self, EventCall.self, RecordedCall.self,
        ReplayCall.self, PurgeCall.self, RaiseCall.self, EraseCall.self, ForgetCall.self, RenameCall.self, BeatCall.self, ResumeCall.self,
        HeldCall.self,
    ]

    private init() throws {
        let prelude = ScriptPrelude(lua: KeySpace.luaHelpers + "\n" + (try Self.read("common")))
        func script(_ contract: any RedisScriptContract.Type) throws -> RedisScript {
            let body = contract.luaBindings + "\n" + (try Self.read(contract.scriptName))
            return RedisScript(name: contract.scriptName, source: prelude.needed(by: body) + "\n" + body)
        }
        enqueue = try script(EnqueueCall.self)
        claim = try script(ClaimCall.self)
        settle = try script(SettleCall.self)
        renew = try script(RenewCall.self)
        cancel = try script(CancelCall.self)
        event = try script(EventCall.self)
        recorded = try script(RecordedCall.self)
        replay = try script(ReplayCall.self)
        purge = try script(PurgeCall.self)
        raise = try script(RaiseCall.self)
        erase = try script(EraseCall.self)
        forget = try script(ForgetCall.self)
        rename = try script(RenameCall.self)
        beat = try script(BeatCall.self)
        resume = try script(ResumeCall.self)
        held = try script(HeldCall.self)
    }

    /// The text of `Scripts/<name>.lua`.
    static func read(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "lua", subdirectory: "Scripts") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Scripts/\(name).lua"])
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
