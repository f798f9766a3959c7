import Foundation
import Gym
import Testing
@testable import gym_train

/// `gym-train play` driven through a pseudo-terminal with the manual clock
/// (one agent step per "." key), so every run is the same whatever the load.
@Suite struct PlayCommandTests {
    /// A fresh folder with its own config home, so no test reads another's (or the user's) settings.
    struct Sandbox {
        let root: URL
        var environment: [String: String] { ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "HOME": root.path] }
        var settingsFile: URL { root.appendingPathComponent("config/pong-breakout-gym/settings.json") }
        func path(_ name: String) -> String { root.appendingPathComponent(name).path }
        init() throws { root = try CLI.temporaryFolder() }
    }

    /// Runs `play` with `arguments` (plus the manual clock and a 3-frame key hold), sends each chunk of `keys` once
    /// the game is drawn, and returns the exit status and everything the program wrote.
    func play(_ arguments: [String], keys: [String], in box: Sandbox, afterKeys: ((PseudoTerminal) -> Void)? = nil) throws -> (Int32, String) {
        let pty = try PseudoTerminal(["play", "--manual-clock", "--hold-frames", "3"] + arguments, environment: box.environment)
        pty.waitUntilPlaying()
        for chunk in keys { pty.send(chunk) }
        afterKeys?(pty)
        let status = pty.finish()
        // Line editing and echo are back on (on Linux the master reads the terminal's modes).
        var modes = termios()
        if tcgetattr(pty.master, &modes) == 0 {
            #expect(modes.c_lflag & tcflag_t(ICANON) != 0 && modes.c_lflag & tcflag_t(ECHO) != 0, "terminal left in raw mode")
        }
        return (status, pty.output)
    }

    func loadPong(_ path: String) throws -> PongTable.Save {
        try PongTable.Save.decode(try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
    }

    func loadBreakout(_ path: String) throws -> BreakoutTable.Save {
        try BreakoutTable.Save.decode(try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
    }

    /// Pong from `seed` with the top paddle standing still and `bottom` played, as Gym steps it.
    func simulatePong(config: PongConfig = PongConfig(), seed: UInt64, bottom: [Int]) -> PongGame {
        var game = PongGame(config: config, seed: seed)
        for a in bottom { _ = game.step(top: 0, bottom: a) }
        return game
    }

    static let stillOpponent = ["--game", "pong", "--preset", "classic", "--opponent", "constant:action=0"]

    // MARK: - Keys

    @Test func scriptedKeysMoveTheBottomPaddleAsTheHoldRuleSays() throws {
        let box = try Sandbox()
        let save = box.path("save.json")
        // d, three steps (held 3); a, six steps (3 held, 3 still); left arrow split over two reads, one step.
        let (status, output) = try play(Self.stillOpponent + ["--seed", "7", "--save", save, "--out", box.path("out")],
                                        keys: ["d...", "a......", "\u{1B}", "[D.", "s"], in: box)
        #expect(status == 0, "\(output.suffix(300))")
        let saved = try loadPong(save)
        let expected = [2, 2, 2, 1, 1, 1, 0, 0, 0, 1]
        #expect(saved.actions == "2x3.1x3.0x3.1")
        let game = simulatePong(seed: saved.seed, bottom: expected)
        #expect(saved.snapshot.state == game.state)
        let start = PongGame(config: PongConfig(), seed: saved.seed).state.bottomX
        #expect(saved.snapshot.state.bottomX == start - PongConfig().paddleSpeed, "net one step left")
        // The terminal is put back: cursor shown, main screen, as the last control sequence before the summary.
        #expect(output.contains("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test func pauseFreezesTheGameAndResumesWhereItStopped() throws {
        let box = try Sandbox()
        let frozen = box.path("frozen.json"), resumed = box.path("resumed.json")
        var (status, _) = try play(Self.stillOpponent + ["--seed", "9", "--save", frozen, "--out", box.path("a")],
                                   keys: ["d..", "p", "......", "dad", "s"], in: box)
        #expect(status == 0)
        let a = try loadPong(frozen)
        #expect(a.actions == "2x2", "no step and no key while paused")
        #expect(a.snapshot.state == simulatePong(seed: a.seed, bottom: [2, 2]).state)

        (status, _) = try play(Self.stillOpponent + ["--seed", "9", "--save", resumed, "--out", box.path("b")],
                               keys: ["d..", "p", "....", "p", ".", "s"], in: box)
        #expect(status == 0)
        let b = try loadPong(resumed)
        #expect(b.actions == "2x3", "the held key's last step comes after the pause")
        #expect(b.snapshot.state == simulatePong(seed: b.seed, bottom: [2, 2, 2]).state)
    }

    // MARK: - Save and resume

    @Test(arguments: ["pong", "breakout"])
    func saveThenResumeContinuesBitIdentically(game: String) throws {
        let box = try Sandbox()
        let rules = game == "pong"
            ? ["--game", "pong", "--preset", "classic", "--opponent", "tracker:reaction=3,noise=0.3"]
            : ["--game", "breakout", "--preset", "atari"]
        let first = "d" + String(repeating: ".", count: 25) + " " + String(repeating: ".", count: 40)
        let second = "a...." + " " + String(repeating: ".", count: 30) + "\u{1B}[C" + String(repeating: ".", count: 60)
        let whole = box.path("whole.json"), half = box.path("half.json"), resumed = box.path("resumed.json")

        var (status, _) = try play(rules + ["--seed", "11", "--save", whole, "--out", box.path("w")],
                                   keys: [first, second, "s"], in: box)
        #expect(status == 0)
        (status, _) = try play(rules + ["--seed", "11", "--save", half, "--out", box.path("h")], keys: [first, "s"], in: box)
        #expect(status == 0)
        (status, _) = try play(["--resume", half, "--save", resumed], keys: [second, "s"], in: box)
        #expect(status == 0)

        if game == "pong" {
            let w = try loadPong(whole), r = try loadPong(resumed), h = try loadPong(half)
            #expect(h.actions != w.actions)
            #expect(r.actions == w.actions)
            #expect(r.snapshot.state == w.snapshot.state)
            #expect(r.snapshot.state.ballVX == w.snapshot.state.ballVX && r.snapshot.state.ballVY == w.snapshot.state.ballVY)
        } else {
            let w = try loadBreakout(whole), r = try loadBreakout(resumed), h = try loadBreakout(half)
            #expect(h.actions != w.actions)
            #expect(r.actions == w.actions)
            #expect(r.snapshot.state == w.snapshot.state)
            #expect(r.snapshot.state.core.ballVX == w.snapshot.state.core.ballVX)
        }
    }

    @Test func aSaveWhoseSnapshotDisagreesWithItsMovesIsRefused() throws {
        let box = try Sandbox()
        let save = box.path("save.json")
        var (status, _) = try play(Self.stillOpponent + ["--seed", "3", "--save", save, "--out", box.path("o")],
                                   keys: ["d.....", "s"], in: box)
        #expect(status == 0)
        let text = try String(contentsOfFile: save, encoding: .utf8)
        try text.replacingOccurrences(of: "\"actions\" : \"2x3.0x2\"", with: "\"actions\" : \"1x3.0x2\"")
            .write(toFile: save, atomically: true, encoding: .utf8)
        let pty = try PseudoTerminal(["play", "--resume", save], environment: box.environment)
        status = pty.finish()
        #expect(status != 0)
        #expect(pty.output.contains("does not match its recorded actions"), "\(pty.output)")
    }

    @Test(arguments: ["hangup", "suspend-signal", "ctrl-z"])
    func signalsAndCtrlZSaveTheGame(way: String) throws {
        let box = try Sandbox()
        let save = box.path("save.json")
        let (status, output) = try play(Self.stillOpponent + ["--seed", "5", "--save", save, "--out", box.path("o")],
                                        keys: ["d...."], in: box) { pty in
            // The steps are taken once the last of them is drawn: the status line shows step 4.
            #expect(pty.waitFor("step 4"))
            // While playing the terminal is raw (so the check after the end, that it is not, can fail).
            var modes = termios()
            if tcgetattr(pty.master, &modes) == 0 { #expect(modes.c_lflag & tcflag_t(ICANON) == 0) }
            switch way {
            case "hangup": kill(pty.process.processIdentifier, SIGHUP)
            case "suspend-signal": kill(pty.process.processIdentifier, SIGTSTP)
            default: pty.send([0x1A])
            }
        }
        #expect(status == 0, "\(output.suffix(300))")
        let saved = try loadPong(save)
        #expect(saved.actions == "2x3.0")
        #expect(output.contains("play --resume \(save)"))
    }

    // MARK: - Settings

    @Test func settingsAreTheNextLaunchsDefaultsUntilReset() throws {
        let box = try Sandbox()
        var (status, _) = try play(["--game", "breakout", "--preset", "atari", "--seed", "1", "--save", box.path("1.json"),
                                    "--out", box.path("o1")], keys: ["..", "s"], in: box)
        #expect(status == 0)
        let settings = PlaySettings.load(from: box.settingsFile)
        #expect(settings.warning == nil)
        #expect(settings.settings.game == .breakout)
        #expect(settings.settings.breakout.preset == "atari")

        (status, _) = try play(["--seed", "1", "--save", box.path("2.json"), "--out", box.path("o2")], keys: ["..", "s"], in: box)
        #expect(status == 0)
        let second = try loadBreakout(box.path("2.json"))
        #expect(second.snapshot.config == (try BreakoutConfig.preset("atari")))

        (status, _) = try play(["--reset-settings", "--seed", "1", "--save", box.path("3.json"), "--out", box.path("o3")],
                               keys: ["..", "s"], in: box)
        #expect(status == 0)
        let third = try PlaySaveHeader.read(try Data(contentsOf: URL(fileURLWithPath: box.path("3.json"))), path: "3.json")
        #expect(third.game == "pong")
    }

    @Test func aCorruptSettingsFileIsReportedInOneLineAndIgnored() throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(at: box.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"game\": \"pong\", oops".utf8).write(to: box.settingsFile)
        let (status, output) = try play(["--opponent", "random", "--seed", "2", "--save", box.path("s.json"),
                                         "--out", box.path("o")], keys: ["...", "s"], in: box)
        #expect(status == 0)
        let lines = output.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).filter { $0.contains("settings file") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("is corrupt") == true)
        #expect(FileManager.default.fileExists(atPath: box.path("s.json")))
        let rewritten = PlaySettings.load(from: box.settingsFile)
        #expect(rewritten.warning == nil)
        #expect(rewritten.settings.opponent == "random")
    }

    // MARK: - End of game and records

    @Test(arguments: ["pong", "breakout"])
    func aFinishedGameIsShownRecordedAndReplayable(game: String) throws {
        let box = try Sandbox()
        let config = box.path("short.json")
        try Data("{\"maxSteps\": 12}".utf8).write(to: URL(fileURLWithPath: config))
        let opponent = game == "pong" ? ["--opponent", "random"] : []
        let (status, output) = try play(["--game", game, "--config", config, "--seed", "4", "--save", box.path("s.json"),
                                         "--out", box.path("o")] + opponent,
                                        keys: ["d" + String(repeating: ".", count: 15), "n", "...", "s"], in: box)
        #expect(status == 0)
        #expect(output.contains("GAME OVER"))
        #expect(output.contains("any key starts a new game"))
        let header = try JSONValue.parse(try String(contentsOfFile: box.path("s.json"), encoding: .utf8))
        #expect(header["gameIndex"] == .number(1), "the key after the end started game 1")
        let records = try String(contentsOfFile: box.path("o/matches.jsonl"), encoding: .utf8)
        #expect(records.split(separator: "\n").count == 1)
        #expect(records.contains("recorded:actions=2x3.0x9,name=person"))

        let replay = try CLI.run(["render", "--replay", box.path("o/matches.jsonl"), "--index", "0", "--out", box.path("r")])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("replay identical to the record"))
    }

    @Test func withoutATerminalPlayRefusesInOneLine() throws {
        let result = try CLI.run(["play", "--game", "pong"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("play needs a terminal"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
