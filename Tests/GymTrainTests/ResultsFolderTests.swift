import Foundation
import Testing

/// A results folder belongs to one run: a second run into a used folder is
/// refused with one line unless it resumes or overwrites, concurrent runs
/// into one folder cannot both proceed, and `--overwrite` replaces the old
/// results without touching a folder gym-train did not write.
@Suite struct ResultsFolderTests {
    static let marker = ".gym-train-folder"

    /// The lines of `stderr` that report an error (ArgumentParser adds usage lines after a validation error).
    static func errorLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.contains("--help") }
    }

    /// Every command that writes a results folder, as a cheap run into `out`.
    static func commands(_ dir: URL) throws -> [(name: String, arguments: (String) -> [String])] {
        let scenarios = dir.appendingPathComponent("tiny.json")
        try Data(#"{ "game": "pong", "preset": "fast", "seed": 9, "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 2 } ] }"#.utf8)
            .write(to: scenarios)
        let train = dir.appendingPathComponent("train.json")
        try Data(#"{ "preset": "smoke", "iterations": 1, "episodeSteps": 50, "evalEpisodes": 1, "evalSteps": 50 }"#.utf8)
            .write(to: train)
        let shortBreakout = dir.appendingPathComponent("short-breakout.json")
        try Data(#"{ "maxSteps": 100 }"#.utf8).write(to: shortBreakout)
        return [
            ("eval", { ["eval", "--episodes", "2", "--workers", "1", "--out", $0] }),
            ("tournament", { ["tournament", "--agent", "random", "--agent", "tracker", "--pairs", "1", "--bootstrap", "10",
                              "--workers", "1", "--out", $0] }),
            ("train", { ["train", "--config", train.path, "--workers", "1", "--out", $0] }),
            ("render", { ["render", "--max-steps", "5", "--out", $0] }),
            ("sweep", { ["sweep", "--scenarios", scenarios.path, "--grid", "paddleWidth=40,56", "--workers", "1", "--out", $0] }),
            ("robustness", { ["robustness", "--game", "breakout", "--agent", "random", "--variants", "far", "--episodes", "1",
                              "--bootstrap", "5", "--config", shortBreakout.path, "--workers", "1", "--out", $0] }),
            ("balance record", { ["balance", "record", "--scenarios", scenarios.path, "--workers", "1", "--out", $0] }),
            ("eval --shard", { ["eval", "--episodes", "2", "--workers", "1", "--shard", "1/2", "--out", $0] }),
            ("balance check --shard", { ["balance", "check", "--scenarios", scenarios.path, "--baselines", "base",
                                         "--workers", "1", "--shard", "1/1", "--out", $0] }),
        ]
    }

    @Test func aSecondRunIntoAUsedFolderIsRefusedUnlessOverwrite() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let commands = try Self.commands(dir)
        // balance check --shard reads the baseline of tiny.json from --baselines.
        let record = try CLI.run(["balance", "record", "--scenarios", "tiny.json", "--workers", "1", "--baselines", "base"], in: dir)
        #expect(record.status == 0, "\(record.stderr)")
        for (name, arguments) in commands {
            let out = dir.appendingPathComponent("run-\(name.replacingOccurrences(of: " ", with: "-"))")
            let first = try CLI.run(arguments(out.path), in: dir)
            #expect(first.status == 0, "\(name): \(first.stderr)")
            let before = CLI.files(in: out)
            #expect(before.contains(Self.marker), "\(name): \(before)")
            let runJSON = try? Data(contentsOf: out.appendingPathComponent("run.json"))

            let second = try CLI.run(arguments(out.path), in: dir)
            #expect(second.status != 0, "\(name): a second run into a used folder was accepted")
            let lines = Self.errorLines(second.stderr)
            #expect(lines.count == 1 && lines[0].contains("already holds an earlier run's results")
                    && lines[0].contains(out.path) && lines[0].contains("--overwrite"), "\(name): \(second.stderr)")
            #expect(CLI.files(in: out) == before, "\(name): the refused run changed the folder")
            #expect((try? Data(contentsOf: out.appendingPathComponent("run.json"))) == runJSON, "\(name)")

            // --overwrite replaces the old results: a stale file is gone, the run's files are back.
            try Data("stale".utf8).write(to: out.appendingPathComponent("stale.txt"))
            let again = try CLI.run(arguments(out.path) + ["--overwrite"], in: dir)
            #expect(again.status == 0, "\(name): \(again.stderr)")
            #expect(CLI.files(in: out) == before, "\(name): \(CLI.files(in: out))")
        }
        // Nothing was written into the working folder's default places by the runs with --out.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Results").path))
    }

    /// `--overwrite` clears only a folder a gym-train run wrote; `--out ''` is refused.
    @Test func overwriteNeverClearsAForeignFolderAndEmptyOutIsRefused() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let foreign = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        for extra in [[], ["--overwrite"]] {
            let r = try CLI.run(["eval", "--episodes", "1", "--out", foreign.path] + extra, in: dir)
            #expect(r.status != 0)
            let lines = Self.errorLines(r.stderr)
            #expect(lines.count == 1 && lines[0].contains("is not empty and holds no gym-train results"), "\(r.stderr)")
        }
        #expect(CLI.files(in: foreign) == ["notes.txt"])
        // An empty folder is taken.
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(try CLI.run(["eval", "--episodes", "1", "--out", empty.path], in: dir).status == 0)
        #expect(CLI.files(in: empty).contains("summary.json"))
        // --out '' would have meant the working folder.
        let r = try CLI.run(["eval", "--episodes", "1", "--out", ""], in: dir)
        #expect(r.status != 0)
        #expect(Self.errorLines(r.stderr) == ["Error: --out '' is empty; allowed: a folder path (a new or empty folder, or an earlier run's with --overwrite)"], "\(r.stderr)")
        #expect(CLI.files(in: dir) == ["empty", "mine"])
    }

    /// Four runs started together into one new folder: exactly one proceeds,
    /// whatever the scheduling (the claim is one O_EXCL create); the others
    /// give one line each, and the folder holds the winner's results only.
    @Test func concurrentRunsIntoOneFolderLetExactlyOneProceed() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0 ..< 3 {
            let out = dir.appendingPathComponent("shared-\(round)")
            let seeds: [UInt64] = [11, 12, 13, 14]
            let results = LockedResults(count: seeds.count)
            DispatchQueue.concurrentPerform(iterations: seeds.count) { k in
                let r = try? CLI.run(["eval", "--episodes", "4", "--workers", "1", "--seed", "\(seeds[k])", "--out", out.path], in: dir)
                results.set(k, r)
            }
            let outputs = results.values.compactMap { $0 }
            #expect(outputs.count == seeds.count)
            let winners = outputs.indices.filter { outputs[$0].status == 0 }
            #expect(winners.count == 1, "round \(round): \(outputs.map(\.status)) \(outputs.map(\.stderr))")
            for (k, o) in outputs.enumerated() where o.status != 0 {
                let lines = Self.errorLines(o.stderr)
                #expect(lines.count == 1 && lines[0].contains(out.path), "run \(k): \(o.stderr)")
            }
            if let w = winners.first {
                let run = try String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8)
                #expect(run.contains("\"seed\": \(seeds[w])"), "\(run)")
            }
        }
    }

    /// While a run holds its folder, neither a resume nor an overwrite of it may start.
    @Test func aFolderInUseIsRefusedEvenToResumeAndOverwrite() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("train.json")
        try Data(#"{ "preset": "smoke", "iterations": 3, "episodeSteps": 50, "evalEpisodes": 1, "evalSteps": 50 }"#.utf8).write(to: config)
        let out = dir.appendingPathComponent("run")
        let held = try HeldRun(["train", "--config", config.path, "--workers", "1", "--out", out.path, "--hold-after", "2"], in: dir)
        #expect(held.waitForHold())
        for arguments in [["train", "--resume", out.path], ["eval", "--episodes", "1", "--out", out.path, "--overwrite"],
                          ["train", "--config", config.path, "--out", out.path, "--overwrite"]] {
            let r = try CLI.run(arguments, in: dir)
            #expect(r.status != 0, "\(arguments)")
            let lines = Self.errorLines(r.stderr)
            #expect(lines.count == 1 && lines[0].contains("is in use by another gym-train run"), "\(arguments): \(r.stderr)")
        }
        let end = held.stop(SIGTERM)
        #expect(end.status == 128 + SIGTERM, "\(end.stderr)")
        // Once it ended, the run resumes to its end.
        let r = try CLI.run(["train", "--resume", out.path], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.files(in: out).contains("policy.json"))
    }

    /// `balance record --out DIR` writes the baselines into DIR (a results folder), not --baselines.
    @Test func balanceRecordHonoursOut() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.commands(dir)
        let out = dir.appendingPathComponent("recorded")
        let r = try CLI.run(["balance", "record", "--scenarios", "tiny.json", "--workers", "1", "--out", out.path], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.files(in: out) == [Self.marker, "run.json", "tiny.json"])
        #expect(r.stdout.contains("wrote \(out.path)/tiny.json"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Results").path))
        // The baseline is the one --baselines would hold.
        let b = try CLI.run(["balance", "record", "--scenarios", "tiny.json", "--workers", "1", "--baselines", "b"], in: dir)
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("tiny.json"))
                == Data(contentsOf: dir.appendingPathComponent("b/tiny.json")))
    }
}
