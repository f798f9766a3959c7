import Testing
@testable import Gym

@Suite struct RandomTests {
    @Test func splitMix64MatchesReferenceVector() {
        // Reference: splitmix64.c seeded with 1234567 (first outputs).
        var g = SplitMix64(seed: 1_234_567)
        #expect(g.next() == 6_457_827_717_110_365_317)
        #expect(g.next() == 3_203_168_211_198_807_973)
    }

    @Test func episodeSeedsArePureAndDistinct() {
        var seen = Set<UInt64>()
        for i in 0 ..< 10_000 { seen.insert(Seeds.episode(runSeed: 7, index: i)) }
        #expect(seen.count == 10_000)
        #expect(Seeds.episode(runSeed: 7, index: 3) == Seeds.episode(runSeed: 7, index: 3))
        #expect(Seeds.episode(runSeed: 7, index: 3) != Seeds.episode(runSeed: 8, index: 3))
    }

    @Test func unitFloatsStayInRangeAndAverageAHalf() {
        var g = Xoshiro256(seed: 42)
        var sum: Double = 0
        for _ in 0 ..< 100_000 {
            let u = g.nextUnit()
            #expect(u >= 0 && u < 1)
            sum += Double(u)
        }
        #expect(abs(sum / 100_000 - 0.5) < 0.01)
    }

    @Test func belowCoversItsRange() {
        var g = Xoshiro256(seed: 9)
        var counts = [Int](repeating: 0, count: 5)
        for _ in 0 ..< 50_000 { counts[g.below(5)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 500 })
    }
}
