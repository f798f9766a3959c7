import Foundation
import Testing

/// `--resume DIR` of tournament (round-robin, gauntlet, SPRT), eval and
/// sweep: a run killed (SIGKILL) once some games are recorded, its journal
/// cut mid-line, resumed and killed again, then resumed with another worker
/// count, plays only the games not
/// recorded and ends with the files of a run never interrupted, byte for byte
/// (timing.json, wall time by nature, and run.json's command line excepted),
/// its journal removed.
@Suite struct ResumeCommandTests {
    /// The command of each kind (without --workers, --out, --resume).
    static func arguments(_ kind: String, in dir: URL) throws -> [String] {
        switch kind {
        case "round-robin":
            return ["tournament", "--agent", "tracker", "--agent", "random", "--agent", "tracker:noise=2,name=T2", "--pairs", "3"]
        case "gauntlet":
            let c = "process:cmd=\(try ExternalAgentCommandTests.agent("constant_agent")) 2,name=C"
            return ["tournament", "--mode", "gauntlet", "--candidate", c, "--agent", "random", "--agent", "tracker:noise=2",
                    "--pairs", "3"]
        case "variants":
            // Games under a variant set: the journal holds results; the records' rules are drawn again from the seeds.
            return ["tournament", "--agent", "tracker", "--agent", "random", "--agent", "tracker:noise=2,name=T2", "--pairs", "3",
                    "--variants", "near"]
        case "sprt-variants":
            return ["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--max-pairs", "40",
                    "--variants", "near"]
        case "eval-variants":
            return ["eval", "--game", "breakout", "--agent", "tracker:noise=1", "--episodes", "10", "--variants", "train"]
        case "sprt":
            return ["tournament", "--mode", "sprt", "--candidate", "tracker", "--baseline", "random", "--max-pairs", "40"]
        case "eval":
            return ["eval", "--agent", "tracker:noise=1", "--opponent", "random", "--episodes", "10"]
        default:
            let scenarios = dir.appendingPathComponent("tiny.json")
            try Data(#"{ "game": "pong", "preset": "fast", "seed": 9, "scenarios": [ { "name": "gap", "a": "tracker:noise=2", "b": "random", "games": 2 } ] }"#.utf8)
                .write(to: scenarios)
            return ["sweep", "--scenarios", scenarios.path, "--grid", "maxScore=3,5,7"]
        }
    }

    /// Every result file of a run folder (subfolders such as agents/ logs
    /// aside), run.json with its command line masked, timing.json left out.
    static func resultFiles(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in CLI.files(in: folder) where name != "timing.json" && name != "agents" {
            var text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if name == "run.json" {
                text = text.replacingOccurrences(of: #""command": "[^"]*""#, with: "\"command\": \"-\"", options: .regularExpression)
            }
            out[name] = text
        }
        return out
    }

    /// The game records a journal holds (its whole lines after the first).
    static func recordedLines(_ journal: URL) throws -> Int {
        let text = try String(contentsOf: journal, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count - 1
    }

    @Test(arguments: ["round-robin", "gauntlet", "variants", "sprt", "sprt-variants", "eval", "eval-variants", "sweep"], [1, 2])
    func aRunKilledMidwayResumesToTheUninterruptedFiles(kind: String, workers: Int) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = try Self.arguments(kind, in: dir)
        let straight = dir.appendingPathComponent("straight")
        let s = try CLI.run(arguments + ["--workers", "\(workers)", "--out", straight.path], in: dir)
        #expect(s.status == 0, "\(s.stderr)")

        let killed = dir.appendingPathComponent("killed")
        let hold = kind == "sweep" ? 1 : 3
        let run = try HeldRun(arguments + ["--workers", "\(workers)", "--out", killed.path, "--hold-after-games", "\(hold)"],
                              in: dir)
        #expect(run.waitForHold("gym-train: holding at game \(hold)"))
        #expect(run.stop(SIGKILL).status == 128 + SIGKILL)
        let journal = killed.appendingPathComponent("journal.jsonl")
        let recorded = try Self.recordedLines(journal)
        #expect(recorded == hold, "the killed run recorded \(recorded) games")
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent("summary.json").path)
                && !FileManager.default.fileExists(atPath: killed.appendingPathComponent("sweep.csv").path))
        // What a kill inside a write(2) can leave: a line cut short.
        let handle = try FileHandle(forWritingTo: journal)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"index": 1, "record": [12, 3"#.utf8))
        try handle.close()

        // Killed again once it recorded one more game: the cut line must be gone, not followed by new lines.
        let second = try HeldRun(arguments + ["--workers", "\(workers)", "--resume", killed.path, "--hold-after-games", "1"],
                                 in: dir)
        #expect(second.waitForHold("gym-train: holding at game 1"))
        #expect(second.stop(SIGKILL).status == 128 + SIGKILL)
        #expect(try Self.recordedLines(journal) == hold + 1)

        let r = try CLI.run(arguments + ["--workers", "\(3 - workers)", "--resume", killed.path], in: dir)
        #expect(r.status == s.status, "\(r.stderr)")
        #expect(r.stderr.contains("gym-train: resuming \(killed.path): \(recorded + 1) of"), "\(r.stderr)")
        let a = try Self.resultFiles(straight), b = try Self.resultFiles(killed)
        #expect(a.keys.sorted() == b.keys.sorted())
        for name in a.keys.sorted() {
            #expect(a[name] == b[name], "\(kind), \(workers) workers: \(name) differs from the uninterrupted run's")
        }
        #expect(KillResumeTests.tempFiles(killed).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: journal.path), "a finished run keeps no journal")

        // A finished run has nothing to resume: one line says so, and its files stay as they were.
        let again = try CLI.run(arguments + ["--workers", "1", "--resume", killed.path], in: dir)
        #expect(again.status != 0)
        let lines = ResultsFolderTests.errorLines(again.stderr)
        #expect(lines.count == 1 && lines[0].contains("the run there finished"), "\(again.stderr)")
        #expect(try Self.resultFiles(killed) == a)
    }

    /// A folder of another run (seed, agents, config, command) is refused
    /// with one line naming what differs; nothing in it changes.
    @Test func aFolderOfAnotherRunIsRefusedNamingWhatDiffers() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let base = ["tournament", "--agent", "tracker", "--agent", "random", "--pairs", "2"]
        let run = try HeldRun(base + ["--workers", "1", "--out", out.path, "--hold-after-games", "1"], in: dir)
        #expect(run.waitForHold("gym-train: holding at game 1"))
        #expect(run.stop(SIGKILL).status == 128 + SIGKILL)
        let before = try Self.resultFiles(out)
        let cases: [([String], String)] = [
            (base + ["--seed", "2"], "it holds a run with seed 1; this run has seed 2"),
            (["tournament", "--agent", "tracker", "--agent", "tracker:noise=2", "--pairs", "2"],
             #"agents ["tracker","random"]; this run has agents ["tracker","tracker:noise=2"]"#),
            (base + ["--preset", "fast"], "it holds a run with configHash"),
            (base + ["--variants", "near"], #"it holds a run with variants none; this run has variants "near""#),
            (["eval", "--agent", "tracker", "--opponent", "random"], #"subcommand "tournament"; this run has subcommand "eval""#),
            (base + ["--out", out.path], "give either --resume DIR or --out DIR, not both"),
        ]
        for (arguments, expected) in cases {
            let r = try CLI.run(arguments + ["--resume", out.path], in: dir)
            #expect(r.status != 0)
            let lines = ResultsFolderTests.errorLines(r.stderr)
            #expect(lines.count == 1 && lines[0].contains(expected), "\(arguments): \(r.stderr)")
        }
        #expect(try Self.resultFiles(out) == before)
        let missing = try CLI.run(base + ["--resume", dir.appendingPathComponent("nope").path], in: dir)
        #expect(missing.status != 0 && missing.stderr.contains("no such folder"), "\(missing.stderr)")
    }

    /// An eval or an SPRT started with `--variants near` resumes only under
    /// that set: another set, or none, is refused with one line naming it.
    @Test(arguments: ["eval-variants", "sprt-variants"])
    func aVariantEvalOrSPRTIsRefusedUnderAnotherSet(kind: String) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = try Self.arguments(kind, in: dir)
        let set = arguments.last ?? "", base = Array(arguments.dropLast(2))
        let out = dir.appendingPathComponent("run")
        let run = try HeldRun(arguments + ["--workers", "1", "--out", out.path, "--hold-after-games", "1"], in: dir)
        #expect(run.waitForHold("gym-train: holding at game 1"))
        #expect(run.stop(SIGKILL).status == 128 + SIGKILL)
        let before = try Self.resultFiles(out)
        for (other, expected) in [(base + ["--variants", "far"], #"it holds a run with variants "\#(set)"; this run has variants "far""#),
                                  (base, #"it holds a run with variants "\#(set)"; this run has variants none"#)] {
            let r = try CLI.run(other + ["--resume", out.path], in: dir)
            #expect(r.status != 0)
            let lines = ResultsFolderTests.errorLines(r.stderr)
            #expect(lines.count == 1 && lines[0].contains(expected), "\(other): \(r.stderr)")
        }
        #expect(try Self.resultFiles(out) == before)
    }

    /// A `--variants` run resumes only with the variant file it started
    /// with: a set of another name, or the same file with other text, is refused with one line.
    @Test func aVariantRunIsRefusedWithAnotherSetOrAChangedVariantFile() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("v.json")
        func write(_ paddleWidth: Int) throws {
            try Data("""
            { "game": "pong", "version": 1, "preset": "classic", "sets": {
              "train": { "sampling": "uniform", "ranges": { "paddleWidth": [48, 80] } },
              "near": { "sampling": "uniform", "points": [ { "name": "p", "values": { "paddleWidth": \(paddleWidth) } } ] },
              "far": { "sampling": "uniform", "points": [ { "name": "q", "values": { "paddleWidth": 100 } } ] } } }
            """.utf8).write(to: file)
        }
        try write(50)
        let out = dir.appendingPathComponent("run")
        let base = ["tournament", "--agent", "tracker", "--agent", "random", "--pairs", "2", "--variants-file", file.path]
        let run = try HeldRun(base + ["--variants", "near", "--workers", "1", "--out", out.path, "--hold-after-games", "1"], in: dir)
        #expect(run.waitForHold("gym-train: holding at game 1"))
        #expect(run.stop(SIGKILL).status == 128 + SIGKILL)
        let before = try Self.resultFiles(out)
        let other = try CLI.run(base + ["--variants", "far", "--resume", out.path], in: dir)
        #expect(other.status != 0)
        let otherLines = ResultsFolderTests.errorLines(other.stderr)
        #expect(otherLines.count == 1 && otherLines[0].contains(#"it holds a run with variants "near"; this run has variants "far""#),
                "\(other.stderr)")
        try write(60)
        let changed = try CLI.run(base + ["--variants", "near", "--resume", out.path], in: dir)
        #expect(changed.status != 0)
        let changedLines = ResultsFolderTests.errorLines(changed.stderr)
        #expect(changedLines.count == 1 && changedLines[0].contains("it holds a run with variantsSha256"), "\(changed.stderr)")
        #expect(try Self.resultFiles(out) == before)
        try write(50)
        let resumed = try CLI.run(base + ["--variants", "near", "--resume", out.path], in: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
    }
}
