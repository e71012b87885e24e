import Foundation
import KilnCore
import Testing

/// A job's id names its shard and its time, so any node finds the job, and PostgreSQL its day, from the id alone.
@Suite struct JobIDTests {
    @Test(arguments: [0, 1, 2, 255, 256, 4_095])
    func anIdNamesTheShardItWasMadeFor(shard: Int) throws {
        let id = JobID(shard: shard)
        #expect(id.shard == shard)
        let parsed = try #require(JobID(validating: id.rawValue.uppercased()))
        #expect(parsed.shard == shard)
        // Written by hand, the text is the UUID's canonical form, of version 7 and RFC 9562's variant.
        #expect(UUID(uuidString: id.rawValue)?.uuidString.lowercased() == id.rawValue)
        let text = Array(id.rawValue)
        #expect(text[14] == "7")
        #expect("89ab".contains(text[19]))
    }

    @Test func anIdCarriesItsSubmissionTimeAndSortsByIt() throws {
        let earlier = JobID(shard: 3, milliseconds: 1_764_000_000_123)
        let later = JobID(shard: 0, milliseconds: 1_764_000_000_124)
        #expect(earlier.milliseconds == 1_764_000_000_123)
        #expect(later.milliseconds == 1_764_000_000_124)
        #expect(earlier.rawValue < later.rawValue)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let fresh = try #require(JobID().milliseconds)
        #expect(abs(fresh - now) < 60_000)
    }

    @Test func anIdMadeBeforeShardsLivesOnShardZeroWithNoTime() throws {
        let version4 = try #require(JobID(validating: "0f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(version4.shard == 0)
        #expect(version4.milliseconds == nil)
    }

    @Test func onlyTheUUIDFormIsTakenAndItIsLowercased() throws {
        let id = JobID(shard: 2)
        #expect(JobID(validating: id.rawValue)?.rawValue == id.rawValue)
        #expect(JobID(validating: id.rawValue.uppercased())?.rawValue == id.rawValue)
        let malformed = [
            "", String(id.rawValue.dropLast()), id.rawValue + "0", id.rawValue.replacingOccurrences(of: "-", with: ""),
            "0f8fad5b-d9cb-469f-a165-70867728950g", "0f8fad5bd-9cb-469f-a165-70867728950e", "{kiln}:job:0f8fad5b-d9cb-469f-a1",
            "0f8fad5b-d9cb-469f-a165-70867728950e\n",
        ]
        for text in malformed { #expect(JobID(validating: text) == nil, "\(text)") }
    }

    @Test func idsMadeAtOnceDiffer() {
        let ids = (0..<1_000).map { _ in JobID(shard: 1, milliseconds: 1_764_000_000_000) }
        #expect(Set(ids).count == ids.count)
    }
}
