import Foundation
import Testing
@testable import gym_train

/// The progress line's wording and arithmetic (no clock: elapsed times are given).
struct ProgressLineTests {
    @Test func theLineGivesDoneOfTotalTheRateAndTheTimeLeft() {
        #expect(Progress.line(label: "tournament", unit: "games", done: 120, total: 400, doneHere: 120, elapsed: 4)
            == "tournament 120/400 games (30%), 30.0 games/s, 9.3 s left")
        // A resumed run: 100 games were recorded before; the rate is of the 20 played here.
        #expect(Progress.line(label: "eval", unit: "episodes", done: 120, total: 400, doneHere: 20, elapsed: 10)
            == "eval 120/400 episodes (30%), 2.0 episodes/s, 2 min 20 s left")
        #expect(Progress.line(label: "sweep", unit: "cells", done: 3, total: 9, doneHere: 0, elapsed: 0)
            == "sweep 3/9 cells (33%), rate not known yet")
        #expect(Progress.line(label: "t", unit: "games", done: 9, total: 9, doneHere: 9, elapsed: 0.03)
            == "t 9/9 games (100%), 300 games/s, done")
        #expect(Progress.duration(7300) == "2 h 01 min")
    }

    @Test func aResumedRunCountsFromItsRecordedGames() {
        let progress = Progress(total: 10, done: 4, label: "t", style: .some(nil))
        for _ in 0 ..< 3 { progress.tick() }
        #expect(progress.done == 7)
    }

    /// On a terminal unless CI is set; GYM_TRAIN_PROGRESS=1 asks for lines
    /// anywhere (whole lines in a log), 0 silences them.
    @Test func linesShowOnATerminalOrWhenAskedFor() {
        #expect(Progress.defaultStyle(environment: [:], stderrIsTerminal: true) == .terminal)
        #expect(Progress.defaultStyle(environment: [:], stderrIsTerminal: false) == nil)
        #expect(Progress.defaultStyle(environment: ["CI": "1"], stderrIsTerminal: true) == nil)
        #expect(Progress.defaultStyle(environment: ["GYM_TRAIN_PROGRESS": "1", "CI": "1"], stderrIsTerminal: false) == .log)
        #expect(Progress.defaultStyle(environment: ["GYM_TRAIN_PROGRESS": "0"], stderrIsTerminal: true) == nil)
    }

    /// Asked for in a log, the run's stderr holds progress lines and stdout
    /// and the result files none.
    @Test func askedForProgressGoesToStderrOnly() throws {
        let dir = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let r = try GymTrainProcess.run(["eval", "--agent", "tracker", "--opponent", "random", "--episodes", "4",
                                         "--workers", "1", "--out", out.path], environment: ["GYM_TRAIN_PROGRESS": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        // The last episode always draws its line, whatever the interval.
        #expect(r.stderr.contains("eval 4/4 episodes (100%)"), "\(r.stderr)")
        #expect(!r.stdout.contains("4/4"))
        for name in CLI.files(in: out) where !name.hasPrefix(".") {
            let text = (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? ""
            #expect(!text.contains("episodes/s"), "\(name)")
        }
    }
}
