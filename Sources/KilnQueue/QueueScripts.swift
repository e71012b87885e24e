import Foundation
public import RedisClient

/// The Lua scripts of `Scripts/`, each with `common.lua` in front, read once from the bundle.
public struct QueueScripts: Sendable {
    public let enqueue: RedisScript
    public let claim: RedisScript
    public let settle: RedisScript
    public let renew: RedisScript
    public let cancel: RedisScript
    public let event: RedisScript
    public let recorded: RedisScript
    public let replay: RedisScript
    public let purge: RedisScript
    public let raise: RedisScript
    public let erase: RedisScript

    public var all: [RedisScript] { [enqueue, claim, settle, renew, cancel, event, recorded, replay, purge, raise, erase] }

    public init() throws {
        let common = try Self.read("common")
        func script(_ name: String) throws -> RedisScript {
            RedisScript(name: name, source: common + "\n" + (try Self.read(name)))
        }
        enqueue = try script("enqueue")
        claim = try script("claim")
        settle = try script("settle")
        renew = try script("renew")
        cancel = try script("cancel")
        event = try script("event")
        recorded = try script("recorded")
        replay = try script("replay")
        purge = try script("purge")
        raise = try script("raise")
        erase = try script("erase")
    }

    private static func read(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "lua", subdirectory: "Scripts") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Scripts/\(name).lua"])
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
