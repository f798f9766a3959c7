import Foundation
import Testing
@testable import Gym

/// Variant files: the shipped sets are valid and equal to Configs/variants,
/// a bad set is one error naming the set, the key, the value and what is
/// allowed, and a variant is drawn from the episode seed alone.
@Suite struct VariantSetTests {
    static func repoFile(_ path: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(path)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func shippedTextsAreTheConfigsFiles() throws {
        #expect(try Self.repoFile("Configs/variants/pong.json") == ShippedVariants.pong + "\n")
        #expect(try Self.repoFile("Configs/variants/breakout.json") == ShippedVariants.breakout + "\n")
    }

    @Test func shippedFilesDecodeWithTrainNearFar() throws {
        let pong = try VariantFile<PongConfig>.decode(ShippedVariants.pong, source: "pong.json")
        let breakout = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "breakout.json")
        #expect(pong.sets.map(\.name) == ["train", "near", "far"])
        #expect(breakout.sets.map(\.name) == ["train", "near", "far"])
        #expect(pong.sensitivity.map(\.key) == ["paddleWidth", "paddleSpeed", "serveSpeed", "speedIncrement", "maxBallSpeed", "englishDivisor"])
        #expect(pong.version == 1 && breakout.version == 1)
    }

    /// Pong's shipped file with `edit` applied to its text.
    func pongError(_ edit: (String) -> String) -> String? {
        do { _ = try VariantFile<PongConfig>.decode(edit(ShippedVariants.pong), source: "v.json"); return nil } catch {
            return error.description
        }
    }

    func replacing(_ a: String, _ b: String) -> (String) -> String {
        { text in
            precondition(text.contains(a), "the shipped file no longer holds \(a)")
            return text.replacingOccurrences(of: a, with: b)
        }
    }

    @Test func badSetsAreOneLineNamingSetKeyValueAndAllowed() {
        let cases: [(String, String, String)] = [
            // a range end beyond the key's own config range
            (#""paddleWidth": [48, 80]"#, #""paddleWidth": [48, 300]"#,
             #"v.json: set "train": "paddleWidth" = 300 is out of range; allowed: 8 ... 256"#),
            // ends the wrong way round
            (#""serveSpeed": [1.5, 2.5]"#, #""serveSpeed": [2.5, 1.5]"#,
             #"v.json: set "train": "serveSpeed" = [2.5, 1.5]: the lower end must not exceed the upper"#),
            // a key that is not a variant key (it would change the episode's limits)
            (#""paddleSpeed": [4.5, 7.5]"#, #""maxSteps": [1000, 2000]"#,
             #"v.json: set "train": unknown key "maxSteps"; valid keys are: paddleWidth, paddleSpeed, paddleVerticalSpeed, serveSpeed, speedIncrement, maxBallSpeed, englishDivisor"#),
            // a corner that breaks a relation between keys
            (#""maxBallSpeed": [8, 12]"#, #""maxBallSpeed": [2, 12]"#,
             #"v.json: set "train", corner paddleWidth=48, paddleSpeed=4.5, serveSpeed=2.5, speedIncrement=0.25, maxBallSpeed=2, englishDivisor=24: "maxBallSpeed" = 2 must be at least serveSpeed (2.5)"#),
            // a train range that leaves the classic rules out
            (#""englishDivisor": [24, 40]"#, #""englishDivisor": [40, 60]"#,
             #"v.json: set "train": "englishDivisor" = [40, 60] does not hold the classic value 32; train ranges lie around the preset's rules"#),
            // a near point outside train's hull
            (#""englishDivisor": 25, "#, #""englishDivisor": 22, "#,
             #"v.json: set "near", point "sharp-english": "englishDivisor" = 22 is out of range; allowed: 24 ... 40 (train's range)"#),
            // a far point inside train's ranges
            (#""paddleSpeed": 3 }"#, #""paddleSpeed": 5 }"#,
             #"v.json: set "far", point "slow-paddle": "paddleSpeed" (paddleSpeed=5) lies inside train's ranges; a far point leaves them in at least one key"#),
            // an unknown sampling rule
            (#""sampling": "uniform",\#n      "ranges""#, #""sampling": "sobol",\#n      "ranges""#,
             #"v.json: set "train": "sampling" = "sobol" is out of range; allowed: "uniform""#),
            // a sensitivity curve without the classic value
            (#""paddleWidth": [32, 48, 64, 80, 112]"#, #""paddleWidth": [32, 48, 80, 112]"#,
             #"v.json: sensitivity: "paddleWidth" = [32,48,80,112] must include the preset's value 64 (the classic rules, marked on the curve)"#),
            // a point value of the wrong type
            (#""paddleWidth": 32 }"#, #""paddleWidth": "wide" }"#,
             #"v.json: set "far", point "tiny-paddle": "paddleWidth" must be a number, found a string"#),
        ]
        for (a, b, expected) in cases {
            let message = pongError(replacing(a, b))
            #expect(message == expected, "editing \(a) → \(b)")
            #expect(message.map { !$0.contains("\n") } ?? false)
        }
        #expect(pongError { $0.replacingOccurrences(of: #""game": "pong""#, with: #""game": "breakout""#) }
            == #"v.json: "game" = "breakout" is out of range; allowed: "pong""#)
        #expect(throws: ConfigError.self) { try VariantFile<PongConfig>.decode(ShippedVariants.pong, source: "v").set("middle", source: "v") }
    }

    @Test func drawIsAPureFunctionOfTheEpisodeSeedAndStaysInRange() throws {
        let file = try VariantFile<PongConfig>.decode(ShippedVariants.pong, source: "p")
        let train = try file.set("train", source: "p"), near = try file.set("near", source: "p")
        guard case let .ranges(ranges) = train.content else { Issue.record("train is not ranges"); return }
        var seenNear = Set<String>()
        for seed in UInt64(0) ..< 500 {
            let v = train.draw(episodeSeed: seed)
            #expect(v == train.draw(episodeSeed: seed))
            for r in ranges {
                let x = try #require(v[r.key]?.numeric)
                #expect(r.contains(x), "seed \(seed): \(r.key) = \(x)")
            }
            _ = try v.apply(to: PongConfig(), source: "seed \(seed)")
            seenNear.insert(near.draw(episodeSeed: seed).name)
        }
        #expect(seenNear.count == 5)
        // Different episode seeds give different rules.
        #expect(train.draw(episodeSeed: 0) != train.draw(episodeSeed: 1))
        let breakout = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "b")
        let v = try breakout.set("train", source: "b").draw(episodeSeed: 7)
        let applied = try v.apply(to: BreakoutConfig(), source: "b")
        #expect(applied.paddleWidth >= 40 && applied.paddleWidth <= 56)
    }

    @Test func reportVariantsOfARangesSetAreDrawnFromTheSeed() throws {
        let file = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "b")
        let train = try file.set("train", source: "b")
        let a = train.variants(draws: 4, seed: 9), b = train.variants(draws: 4, seed: 9)
        #expect(a == b && a.map(\.name) == ["train-1", "train-2", "train-3", "train-4"])
        #expect(a != train.variants(draws: 4, seed: 10))
        #expect(try file.set("far", source: "b").variants(draws: 4, seed: 9).count == 6)
        #expect(file.sensitivityVariants("gravity").map(\.name) == ["gravity=0", "gravity=0.005", "gravity=0.01", "gravity=0.02"])
    }
}
