import Foundation
import Testing

/// Training killed midway (SIGKILL, SIGINT, SIGTERM) and resumed gives the
/// files of a run never interrupted, byte for byte (wall-clock fields
/// masked), and leaves no temp file behind.
@Suite struct KillResumeTests {
    /// The run's files with their wall-clock fields masked: checkpoint.json's
    /// "wallSeconds", metrics.csv's wall_seconds column.
    static func comparableFiles(_ folder: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let names = ["checkpoint.json", "metrics.csv", "policy.json", "best.json", "config.json", "game.json"]
            + CLI.files(in: folder.appendingPathComponent("checkpoints")).map { "checkpoints/" + $0 }
        for name in names {
            var text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if name == "checkpoint.json" {
                text = text.replacingOccurrences(of: #""wallSeconds" *: *[0-9.e+-]+"#, with: "\"wallSeconds\": 0",
                                                 options: .regularExpression)
            }
            if name == "metrics.csv" {
                text = text.split(separator: "\n").map { line in
                    var f = line.split(separator: ",", omittingEmptySubsequences: false)
                    if f.count > 2, f[0] != "iteration" { f[2] = "-" }
                    return f.joined(separator: ",")
                }.joined(separator: "\n")
            }
            out[name] = text
        }
        return out
    }

    /// Every temp file (".<name>.<pid>.tmp") under `folder`.
    static func tempFiles(_ folder: URL) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return all.filter { URL(fileURLWithPath: $0).lastPathComponent.hasSuffix(".tmp") }
    }

    @Test(arguments: [SIGKILL, SIGINT, SIGTERM])
    func aRunKilledMidwayResumesToTheUninterruptedFiles(signal: Int32) throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5 iterations, checkpoints every 2 (and at the end), evaluations every 2.
        let config = dir.appendingPathComponent("train.json")
        try Data(#"{ "preset": "smoke", "iterations": 5, "episodeSteps": 600, "evalEpisodes": 2, "evalSteps": 300, "opponent": "tracker:noise=2" }"#.utf8)
            .write(to: config)
        let straight = dir.appendingPathComponent("straight")
        let s = try CLI.run(["train", "--config", config.path, "--workers", "2", "--out", straight.path], in: dir)
        #expect(s.status == 0, "\(s.stderr)")

        // Held after iteration 3 (its checkpoint is at 2), then signalled.
        let killed = dir.appendingPathComponent("killed")
        let run = try HeldRun(["train", "--config", config.path, "--workers", "2", "--out", killed.path, "--hold-after", "3"],
                              in: dir)
        #expect(run.waitForHold())
        let end = run.stop(signal)
        #expect(end.status == 128 + signal, "\(end.stderr)")
        let checkpoint = try String(contentsOf: killed.appendingPathComponent("checkpoint.json"), encoding: .utf8)
        // A graceful stop writes the iteration it stopped after; SIGKILL leaves the last periodic checkpoint.
        #expect(checkpoint.contains("\"iteration\": \(signal == SIGKILL ? 2 : 3)"), "\(checkpoint.prefix(400))")
        if signal != SIGKILL {
            #expect(end.stderr.contains("resume with: gym-train train --resume \(killed.path)"), "\(end.stderr)")
        }

        let r = try CLI.run(["train", "--resume", killed.path, "--workers", "3"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let a = try Self.comparableFiles(straight), b = try Self.comparableFiles(killed)
        #expect(a.keys.sorted() == b.keys.sorted())
        for name in a.keys.sorted() {
            #expect(a[name] == b[name], "\(name) differs from the uninterrupted run's")
        }
        #expect(Self.tempFiles(killed).isEmpty, "\(Self.tempFiles(killed))")
    }

    /// A run killed before its first checkpoint: the resume says what to do in
    /// one line, and --overwrite starts it again; the temp files a killed run
    /// left are removed when the folder is next claimed.
    @Test func aRunKilledBeforeItsFirstCheckpointIsExplainedAndItsTempFilesCleared() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("train.json")
        try Data(#"{ "preset": "smoke", "iterations": 3, "checkpointInterval": 3, "episodeSteps": 60, "evalEpisodes": 1, "evalSteps": 60 }"#.utf8)
            .write(to: config)
        let out = dir.appendingPathComponent("run")
        let run = try HeldRun(["train", "--config", config.path, "--workers", "1", "--out", out.path, "--hold-after", "1"], in: dir)
        #expect(run.waitForHold())
        #expect(run.stop(SIGKILL).status == 128 + SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("checkpoint.json").path))
        // What a kill inside a write leaves (the window of rename(2)).
        let stale = [out.appendingPathComponent(".run.json.99999.tmp"),
                     out.appendingPathComponent("checkpoints/.iteration-000002.json.99999.tmp")]
        try FileManager.default.createDirectory(at: out.appendingPathComponent("checkpoints"), withIntermediateDirectories: true)
        for url in stale { try Data("{".utf8).write(to: url) }

        let resume = try CLI.run(["train", "--resume", out.path], in: dir)
        #expect(resume.status != 0)
        let lines = ResultsFolderTests.errorLines(resume.stderr)
        #expect(lines.count == 1 && lines[0].contains("holds no checkpoint.json") && lines[0].contains("--overwrite"),
                "\(resume.stderr)")
        #expect(Self.tempFiles(out).isEmpty, "the claim left \(Self.tempFiles(out))")

        let again = try CLI.run(["train", "--config", config.path, "--workers", "1", "--out", out.path, "--overwrite"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(CLI.files(in: out).contains("policy.json") && Self.tempFiles(out).isEmpty)
    }
}
