import Foundation
import KilnWorker
import Testing

/// How many chat exports a worker runs at once from the memory it is given.
@Suite struct CPUMemoryBudgetTests {
    private static let megabyte: UInt64 = 1_048_576

    @Test func theRequestedCountStandsWhenTheMemoryHoldsIt() {
        #expect(CPUMemoryBudget(memory: 24_000 * Self.megabyte).slots(requested: 2) == 2)
        #expect(CPUMemoryBudget(memory: 800 * Self.megabyte).slots(requested: 2) == 2)
    }

    @Test func fewerRunWhenTheMemoryHoldsFewerExports() {
        // 799 MB holds one export's planned 400 MB, not two.
        #expect(CPUMemoryBudget(memory: 799 * Self.megabyte).slots(requested: 2) == 1)
        #expect(CPUMemoryBudget(memory: 2_048 * Self.megabyte).slots(requested: 8) == 5)
    }

    @Test func noneRunWhenTheMemoryHoldsNoExportOrNoneAreRequested() {
        #expect(CPUMemoryBudget(memory: 399 * Self.megabyte).slots(requested: 2) == 0)
        #expect(CPUMemoryBudget(memory: 24_000 * Self.megabyte).slots(requested: 0) == 0)
    }

    @Test func theGrantedMemoryIsNeverMoreThanTheMachines() {
        let granted = CPUMemoryBudget.granted()
        #expect(granted.memory > 0)
        #expect(granted.memory <= ProcessInfo.processInfo.physicalMemory)
    }
}
