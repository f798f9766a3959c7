import Foundation
import Testing

/// `gym-train robustness`: the files of one run equal those of its shards
/// merged and of a run on another worker count, byte for byte; the report
/// holds every agent × rules × score; bad sets are one error line.
@Suite struct RobustnessCommandTests {
    /// A small Pong variant file (two near points, one far, a three-value curve) and short games.
    static let variantText = """
    { "game": "pong", "version": 1, "preset": "classic",
      "sets": { "train": { "sampling": "uniform", "ranges": { "paddleWidth": [48, 80], "serveSpeed": [1.5, 2.5] } },
                "near": { "sampling": "uniform", "points": [
                  { "name": "wide", "values": { "paddleWidth": 76 } },
                  { "name": "quick", "values": { "serveSpeed": 2.4 } } ] },
                "far": { "sampling": "uniform", "points": [ { "name": "tiny", "values": { "paddleWidth": 32 } } ] } },
      "sensitivity": { "paddleWidth": [32, 64, 96] } }
    """
    static let configText = #"{"maxScore": 2, "maxSteps": 1500}"#

    static func pongArguments(in dir: URL, set: String = "near") throws -> [String] {
        let variants = dir.appendingPathComponent("variants.json"), config = dir.appendingPathComponent("short.json")
        try variantText.write(to: variants, atomically: true, encoding: .utf8)
        try configText.write(to: config, atomically: true, encoding: .utf8)
        return ["robustness", "--agent", "tracker:noise=2", "--agent", "random", "--opponent", "tracker:speed=0.5",
                "--variants", set, "--variants-file", variants.path, "--config", config.path,
                "--episodes", "4", "--bootstrap", "50", "--seed", "3"]
    }

    static let files = ["config.json", "robustness-heatmap.svg", "robustness-sensitivity.svg", "robustness.csv", "robustness.json"]

    @Test func pongShardsMergeToTheWholeRunAndWorkersDoNotMatter() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = try Self.pongArguments(in: dir)
        let (whole, merged) = try ShardCommandTests.wholeAndMerged(args, in: dir)
        try ShardCommandTests.expectIdentical(whole, merged, comparing: Self.files)
        let one = dir.appendingPathComponent("one")
        let r = try CLI.run(args + ["--workers", "1", "--out", one.path])
        #expect(r.status == 0, "\(r.stderr)")
        try ShardCommandTests.expectIdentical(whole, one, comparing: Self.files)
        // 2 agents × (classic, wide, quick, paddleWidth=32, paddleWidth=96) × 2 scores, and the header.
        let csv = try String(contentsOf: whole.appendingPathComponent("robustness.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 2 * 5 * 2)
        #expect(csv.contains("random,paddleWidth=96,sensitivity,paddleWidth,96,pointShare,"))
        let json = try String(contentsOf: whole.appendingPathComponent("robustness.json"), encoding: .utf8)
        #expect(json.contains("\"retention\"") && json.contains("\"worst\""))
        let heatmap = try String(contentsOf: whole.appendingPathComponent("robustness-heatmap.svg"), encoding: .utf8)
        for label in ["classic", "wide", "quick", "tracker:noise=2", "random"] { #expect(heatmap.contains(">\(label)<")) }
        let curves = try String(contentsOf: whole.appendingPathComponent("robustness-sensitivity.svg"), encoding: .utf8)
        #expect(curves.contains(">paddleWidth<") && curves.contains(">classic<"))
    }

    @Test func breakoutShippedFarSetShardsMergeToTheWholeRun() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("short.json")
        try #"{"maxSteps": 600}"#.write(to: config, atomically: true, encoding: .utf8)
        let args = ["robustness", "--game", "breakout", "--agent", "tracker", "--variants", "far", "--config", config.path,
                    "--episodes", "2", "--bootstrap", "20", "--seed", "8"]
        let (whole, merged) = try ShardCommandTests.wholeAndMerged(args, in: dir)
        try ShardCommandTests.expectIdentical(whole, merged, comparing: Self.files)
        let csv = try String(contentsOf: whole.appendingPathComponent("robustness.csv"), encoding: .utf8)
        #expect(csv.contains("tracker,strong-gravity,variant,,,bricksPerLife,"))
    }

    @Test func badSetsAndOptionsAreOneErrorLine() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = try Self.pongArguments(in: dir, set: "middle")
        let r = try CLI.run(args)
        #expect(r.status != 0)
        #expect(r.stderr.contains("has no set \"middle\"; sets are: train, near, far"), "\(r.stderr)")
        try Self.variantText.replacingOccurrences(of: "\"paddleWidth\": 76", with: "\"paddleWidth\": 300")
            .write(to: dir.appendingPathComponent("variants.json"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(args.map { $0 == "middle" ? "near" : $0 })
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("set \"near\", point \"wide\": \"paddleWidth\" = 300 is out of range; allowed: 8 ... 256"), "\(bad.stderr)")
        let none = try CLI.run(["robustness", "--episodes", "1"])
        #expect(none.status != 0 && none.stderr.contains("--agent is missing"))
    }
}
