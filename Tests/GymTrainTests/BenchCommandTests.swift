import Foundation
import Gym
import Testing

@Suite struct BenchCommandTests {
    /// `bench` prints every figure and writes its JSON report (short
    /// measurements: this checks the plumbing, never the speed).
    @Test func benchWritesItsReport() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("bench.json")
        let r = try CLI.run(["bench", "--game", "pong", "--preset", "classic", "--envs", "16", "--seconds", "0.02",
                             "--workers", "2", "--repeats", "2", "--ticks", "64", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        for text in ["batched: 1 worker", "batched + linear policy", "batched + tracker seated (seat 1), as users run it",
                     "single API", "allocations/step", "scaling",
                     "over 2]", "in the step loops", "per dispatch", "64 ticks per dispatch"] {
            #expect(r.stdout.contains(text), "missing \"\(text)\" in: \(r.stdout)")
        }
        let data = try Data(contentsOf: out)
        let json = try JSONValue.parse(String(decoding: data, as: UTF8.self))
        let text = json.serialized()
        for key in ["\"machine\"", "\"cpu\"", "\"buildConfiguration\"", "\"batchedLinearPolicy\"",
                    "\"batchedOpponentSeated\"", "\"singleAPI\"",
                    "\"stepsPerSecond\"", "\"allocationsPerStepOneWorker\"", "\"timesRealTime\"", "\"method\"",
                    "\"scalingPerRepeat\"", "\"allocationsPerStepAllWorkersInStepLoops\"", "\"ticksPerDispatch\""] {
            #expect(text.contains(key), "report lacks \(key)")
        }
        #expect(CLI.files(in: dir) == ["bench.json"], "stray files: \(CLI.files(in: dir))")
    }

    /// `--config FILE` measures that config (here Breakout at frame skip 4),
    /// named by its path.
    @Test func benchMeasuresAConfigFile() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("skip4.json")
        try Data("{\"preset\": \"atari\", \"frameSkip\": 4}".utf8).write(to: config)
        let out = dir.appendingPathComponent("bench.json")
        let r = try CLI.run(["bench", "--game", "breakout", "--config", config.path, "--envs", "8", "--seconds", "0.02",
                             "--workers", "1", "--repeats", "1", "--ticks", "16", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("breakout \(config.path) (frameSkip 4)"), "\(r.stdout)")
        // --workers 0: the machine's cores, as in every command that shares WorkerOptions.
        let skips = try CLI.run(["bench", "--game", "pong", "--preset", "classic", "--frame-skip", "1,8", "--sticky", "0.25",
                                 "--envs", "8", "--seconds", "0.02", "--workers", "0", "--repeats", "1", "--ticks", "16",
                                 "--out", out.path])
        #expect(skips.status == 0, "\(skips.stderr)")
        for text in ["pong classic frameSkip 1 sticky 0.25 (frameSkip 1)", "pong classic frameSkip 8 sticky 0.25 (frameSkip 8)",
                     "frames/s"] {
            #expect(skips.stdout.contains(text), "missing \"\(text)\" in: \(skips.stdout)")
        }
        let badSkip = try CLI.run(["bench", "--game", "pong", "--frame-skip", "4,x", "--seconds", "0.01"])
        #expect(badSkip.status != 0 && badSkip.stderr.contains("--frame-skip 4,x"), "\(badSkip.stderr)")
        let bad = try CLI.run(["bench", "--config", config.path, "--seconds", "0.01"])
        #expect(bad.status != 0 && bad.stderr.contains("--config needs --game"), "\(bad.stderr)")
    }

    @Test func chunkOutOfRangeIsOneClearError() throws {
        let r = try CLI.run(["bench", "--game", "pong", "--chunk", "0", "--seconds", "0.01"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--chunk 0") && r.stderr.contains("1 ... 1000000"), "\(r.stderr)")
    }

    @Test func unknownPresetIsOneClearError() throws {
        let r = try CLI.run(["bench", "--game", "breakout", "--preset", "classical", "--seconds", "0.01"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("classical") && r.stderr.contains("atari"), "\(r.stderr)")
    }

    @Test func benchReportsStepsPerSecond() throws {
        // 64 ticks per dispatch: a debug build's round of the default 2048
        // ticks over every case took minutes.
        let r = try CLI.run(["bench", "--game", "pong", "--envs", "64", "--seconds", "0.2", "--workers", "2", "--ticks", "64"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 worker") && r.stdout.contains("steps/s") && r.stdout.contains("real time"))
    }

    @Test func benchBreakoutReportsStepsPerSecond() throws {
        let r = try CLI.run(["bench", "--game", "breakout", "--envs", "16", "--seconds", "0.05", "--workers", "1",
                             "--ticks", "64"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("bench breakout") && r.stdout.contains("steps/s"))
    }
}
