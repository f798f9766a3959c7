import Foundation
import Testing

/// External agents through the CLI: `agent check` passes a good agent and
/// fails each kind of bad one; no agent process survives the gym's exit.
struct ExternalAgentCommandTests {
    /// tests/agents/NAME.c compiled with `cc` (once per test process).
    static func agent(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "pbgym-cli-agents-\(getpid())"
        let out = folder + "/" + name
        if FileManager.default.isExecutableFile(atPath: out) { return out }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-O2", "-o", out + ".\(UInt64.random(in: 0 ... .max))",
                        GymTrainProcess.packageRoot.appendingPathComponent("tests/agents/\(name).c").path]
        try cc.run()
        cc.waitUntilExit()
        #expect(cc.terminationStatus == 0)
        try? FileManager.default.moveItem(atPath: cc.arguments![3], toPath: out)
        return out
    }

    /// An agent file for `command` in a fresh folder.
    static func agentFile(_ command: [String], extra: String = "") throws -> String {
        let folder = GymTrainProcess.temporaryFolder("agentfile")
        let path = folder.appendingPathComponent("agent.json").path
        let json = "{\"command\": [\(command.map { "\"\($0)\"" }.joined(separator: ", "))]\(extra)}"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func agentCheckPassesTheCConstantAgent() throws {
        let out = try GymTrainProcess.run(["agent", "check", "process:cmd=\(try Self.agent("constant_agent")) 2,name=C2"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("C2 (calls itself \"c-constant\"): handshake ok"), "\(out.stdout)")
        #expect(out.stdout.contains("deterministic"), "\(out.stdout)")
        #expect(out.stdout.contains("complies"), "\(out.stdout)")
    }

    static let bad: [(String, String)] = [
        ("exit", "exited with status 3"),
        ("crash", "killed by signal 6 (SIGABRT)"),
        ("junk", "junk on its standard output"),
        ("count", "actions in"),
        ("range", "is out of range; actions are 0 ... 2"),
        ("error", "it reported an error: no policy loaded"),
        ("version", "speaks protocol version 9; this gym speaks 1"),
        ("unseeded", "not deterministic"),
    ]

    @Test(arguments: bad)
    func agentCheckFailsEachKindOfBadAgent(fault: String, words: String) throws {
        let out = try GymTrainProcess.run(["agent", "check", "process:cmd=\(try Self.agent("faulty_agent")) \(fault),name=bad"])
        #expect(out.status != 0)
        #expect(out.stderr.contains(words), "\(fault): \(out.stderr)")
        #expect(!out.stdout.contains("complies"), "\(fault): \(out.stdout)")
    }

    @Test func agentCheckFailsAHungAgentAfterItsTimeLimit() throws {
        let file = try Self.agentFile([try Self.agent("faulty_agent"), "hang"], extra: ", \"actSeconds\": 0.5")
        let out = try GymTrainProcess.run(["agent", "check", "process:\(file)"])
        #expect(out.status != 0)
        #expect(out.stderr.contains("no reply within its time limit of 0.5 s"), "\(out.stderr)")
        #expect(out.stderr.contains("faulty_agent: hang at act 2"), "\(out.stderr)")
    }

    /// Whether process `pid` is gone (or a zombie nobody reaped yet).
    static func gone(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.contains("State:\tZ")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func noAgentProcessSurvivesASignalToTheGym(signal: Int32) throws {
        let folder = GymTrainProcess.temporaryFolder("signal")
        let pidFile = folder.appendingPathComponent("agent.pid").path
        let file = try Self.agentFile([try Self.agent("faulty_agent"), "hang"],
                                      extra: ", \"actSeconds\": 600, \"environment\": {\"FAULTY_PIDFILE\": \"\(pidFile)\"}")
        let gym = Process()
        gym.executableURL = GymTrainProcess.executable
        gym.arguments = ["agent", "check", "process:\(file)"]
        gym.standardOutput = FileHandle.nullDevice
        gym.standardError = FileHandle.nullDevice
        try gym.run()
        // The agent writes its pid once it hangs (the gym then waits for its reply).
        var pid: Int32?
        for _ in 0 ..< 6000 where pid == nil {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8) { pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            else { usleep(10000) }
        }
        guard let pid else { gym.terminate(); Issue.record("the agent never hung"); return }
        #expect(!Self.gone(pid))
        kill(gym.processIdentifier, signal)
        // A gym that does not end on the signal fails the test instead of hanging it.
        for _ in 0 ..< 12000 where gym.isRunning { usleep(10000) }
        guard !gym.isRunning else {
            kill(gym.processIdentifier, SIGKILL); kill(pid, SIGKILL)
            Issue.record("the gym did not end on signal \(signal)")
            return
        }
        #expect(gym.terminationReason == .uncaughtSignal && gym.terminationStatus == signal)
        var dead = false
        for _ in 0 ..< 500 where !dead { dead = Self.gone(pid); if !dead { usleep(10000) } }
        if !dead { kill(pid, SIGKILL) }
        #expect(dead, "agent process \(pid) outlived the gym after signal \(signal)")
    }
}

extension ExternalAgentCommandTests {
    @Test func aFaultInATournamentStopsItAndLeavesNoAgentRunning() throws {
        let dir = GymTrainProcess.temporaryFolder("tournament-fault")
        let pidFile = dir.appendingPathComponent("good.pid").path
        let good = try Self.agentFile([try Self.agent("faulty_agent"), "none", "2"],
                                      extra: ", \"name\": \"good\", \"environment\": {\"FAULTY_PIDFILE\": \"\(pidFile)\"}")
        let bad = "process:cmd=\(try Self.agent("faulty_agent")) range 40,name=bad"
        let out = try GymTrainProcess.run(["tournament", "--agent", "process:\(good)", "--agent", bad, "--agent", "random",
                                           "--pairs", "2", "--out", dir.appendingPathComponent("run").path])
        #expect(out.status != 0)
        let first = out.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("agent bad") && first.contains("action 7 is out of range"), "\(out.stderr)")
        #expect(out.stderr.contains("faulty_agent: range at act 40"), "\(out.stderr)")
        let pid = Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
        var dead = false
        for _ in 0 ..< 500 where !dead { dead = pid.map(Self.gone) ?? false; if !dead { usleep(10000) } }
        #expect(dead, "the good agent's process outlived the failed tournament")
    }

    @Test func balanceAndSweepStartAScenarioFilesAgentOnlyWhenAllowed() throws {
        let dir = GymTrainProcess.temporaryFolder("balance-ext")
        let scenarios = dir.appendingPathComponent("ext.json").path
        let agent = "process:cmd=\(try Self.agent("constant_agent")) 1,name=K"
        try """
        {"game": "pong", "preset": "classic", "seed": 3, "alpha": 0.001,
         "scenarios": [{"name": "ext", "a": "\(agent)", "b": "tracker:noise=2", "games": 4}]}
        """.write(toFile: scenarios, atomically: true, encoding: .utf8)
        let baselines = dir.appendingPathComponent("baselines").path
        let refused = try GymTrainProcess.run(["balance", "record", "--scenarios", scenarios, "--baselines", baselines])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("agent K: was read from a file"), "\(refused.stderr)")
        let record = try GymTrainProcess.run(["balance", "record", "--scenarios", scenarios, "--baselines", baselines,
                                              "--allow-agent-programs"])
        #expect(record.status == 0, "\(record.stderr)")
        let check = try GymTrainProcess.run(["balance", "check", "--scenarios", scenarios, "--baselines", baselines,
                                             "--allow-agent-programs"])
        #expect(check.status == 0, "\(check.stderr)")
        let sweep = try GymTrainProcess.run(["sweep", "--scenarios", scenarios, "--grid", "maxScore=3,5", "--allow-agent-programs",
                                             "--out", dir.appendingPathComponent("s1").path])
        #expect(sweep.status == 0, "\(sweep.stderr)")
    }

    /// A record keeps an external agent's name, agent file and the file's
    /// SHA-256 (what `sha256sum` prints); a built-in agent's side has none.
    @Test func matchRecordsKeepTheAgentFileAndItsSha256() throws {
        let dir = GymTrainProcess.temporaryFolder("agent-hash")
        let file = try Self.agentFile([try Self.agent("constant_agent"), "2"], extra: #", "name": "K""#)
        let run = dir.appendingPathComponent("run")
        let t = try GymTrainProcess.run(["tournament", "--agent", "process:\(file)", "--agent", "random", "--pairs", "1",
                                         "--out", run.path])
        #expect(t.status == 0, "\(t.stderr)")
        let sum = Process()
        sum.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sum.arguments = ["sha256sum", file]
        let pipe = Pipe()
        sum.standardOutput = pipe
        try sum.run()
        let digest = String(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64))
        sum.waitUntilExit()
        let program = #"{"name":"K","file":"\#(file)","sha256":"\#(digest)"}"#
        let lines = try String(contentsOf: run.appendingPathComponent("matches.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""bottomProgram":\#(program),"#) && !lines[0].contains("topProgram"), "\(lines[0])")
        #expect(lines[1].contains(#""topProgram":\#(program),"#) && !lines[1].contains("bottomProgram"), "\(lines[1])")
    }

    @Test func sprtPrintsTheFastchessReportLine() throws {
        let dir = GymTrainProcess.temporaryFolder("sprt-line")
        let out = try GymTrainProcess.run(["tournament", "--mode", "sprt", "--candidate", "tracker:noise=2",
                                           "--baseline", "process:cmd=\(try Self.agent("constant_agent")) 1,name=K",
                                           "--max-pairs", "40", "--out", dir.appendingPathComponent("run").path])
        let line = out.stdout.split(separator: "\n").first { $0.contains("nElo:") }.map(String.init) ?? ""
        #expect(line.range(of: #"^  Elo: -?[0-9.]+ \+/- [0-9.]+, nElo: (-?[0-9.]+|n/a) \+/- [0-9.]+, LLR: -?[0-9.]+ \(-2\.94, 2\.94\) \[-20\.00, 0\.00\], Penta: \[\d+, \d+, \d+, \d+, \d+\]$"#,
                           options: .regularExpression) != nil, "\(out.stdout)")
    }

    @Test func aRecordsExternalAgentStartsOnlyWhenAllowed() throws {
        let dir = GymTrainProcess.temporaryFolder("replay")
        let run = dir.appendingPathComponent("run")
        let agent = "process:cmd=\(try Self.agent("constant_agent")) 2,name=K"
        let t = try GymTrainProcess.run(["tournament", "--agent", agent, "--agent", "random", "--pairs", "1", "--out", run.path])
        #expect(t.status == 0, "\(t.stderr)")
        let matches = run.appendingPathComponent("matches.jsonl").path
        let refused = try GymTrainProcess.run(["render", "--replay", matches, "--index", "0", "--max-steps", "50",
                                               "--gif", dir.appendingPathComponent("a.gif").path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("agent K: was read from a file") && refused.stderr.contains("--allow-agent-programs"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.gif").path))
        let allowed = try GymTrainProcess.run(["render", "--replay", matches, "--index", "0", "--max-steps", "50",
                                               "--allow-agent-programs", "--gif", dir.appendingPathComponent("b.gif").path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.gif").path))
    }
}

/// The equivalence: the C agent playing `constant:action=1`'s policy gives
/// the built-in's files byte for byte (but for the spec text, which records
/// and rating tables keep as given) on 1 and 2 workers and as 2 shards merged.
struct ExternalAgentEquivalenceTests {
    static func run(_ arguments: [String]) throws {
        let out = try GymTrainProcess.run(arguments)
        #expect(out.status == 0, "\(arguments): \(out.stderr)")
    }

    static func text(_ url: URL, _ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test(arguments: ["tournament", "eval"])
    func anExternalAgentPlaysTheBuiltInPolicysGamesExactly(command: String) throws {
        let dir = GymTrainProcess.temporaryFolder("equiv-\(command)")
        let external = "process:cmd=\(try ExternalAgentCommandTests.agent("constant_agent")) 1,name=K"
        let builtIn = "constant:action=1,name=K"
        func arguments(_ agent: String) -> [String] {
            command == "tournament"
                ? ["tournament", "--agent", agent, "--agent", "random", "--agent", "tracker:noise=2", "--pairs", "3"]
                : ["eval", "--agent", agent, "--opponent", "tracker:noise=2", "--episodes", "6"]
        }
        let files = command == "tournament" ? ["matches.jsonl", "ratings.csv", "matrix.csv"] : ["episodes.csv", "summary.json"]
        let reference = dir.appendingPathComponent("builtin")
        try Self.run(arguments(builtIn) + ["--workers", "1", "--out", reference.path])
        var runs: [(String, URL)] = []
        for workers in [1, 2] {
            let out = dir.appendingPathComponent("external-w\(workers)")
            try Self.run(arguments(external) + ["--workers", "\(workers)", "--out", out.path])
            runs.append(("\(workers) workers", out))
        }
        var shards: [String] = []
        for k in 1 ... 2 {
            let out = dir.appendingPathComponent("shard\(k)")
            try Self.run(arguments(external) + ["--workers", "\(k)", "--shard", "\(k)/2", "--out", out.path])
            shards.append(out.path)
        }
        let merged = dir.appendingPathComponent("merged")
        try Self.run(["merge", "--out", merged.path] + shards.reversed())
        runs.append(("2 shards merged", merged))
        for (what, url) in runs {
            #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("agents").path) || what.contains("merged"),
                    "\(what): no agents/ logs")
            for name in files {
                // An external agent's records also keep its name and agent file (topProgram, bottomProgram).
                let got = try Self.text(url, name).replacingOccurrences(of: external, with: builtIn)
                    .replacingOccurrences(of: #""(bottom|top)Program":\{[^}]*\},"#, with: "", options: .regularExpression)
                #expect(got == (try Self.text(reference, name)), "\(command) \(what): \(name) differs from the built-in agent's")
            }
        }
    }
}

/// `train` with external opponents and evaluation opponents: each worker
/// starts its own process; the C agent playing `constant`'s policy trains
/// the weights the built-in gives, for 1 and 2 workers; a config file's
/// external agent starts only with --allow-agent-programs.
struct ExternalAgentTrainTests {
    @Test func trainingAgainstTheCAgentEqualsTrainingAgainstTheBuiltInPolicy() throws {
        let dir = GymTrainProcess.temporaryFolder("train-ext")
        let config = dir.appendingPathComponent("t.json").path
        try #"{ "preset": "smoke", "iterations": 2, "episodeSteps": 300, "evalEpisodes": 2, "evalSteps": 300 }"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let agent = try ExternalAgentCommandTests.agent("constant_agent")
        func train(_ opponent: String, _ evalOpponent: String, workers: Int, name: String) throws -> [String: String] {
            let out = dir.appendingPathComponent(name)
            let r = try GymTrainProcess.run(["train", "--config", config, "--opponent", opponent, "--eval-opponent", evalOpponent,
                                             "--workers", "\(workers)", "--out", out.path])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            var files = try KillResumeTests.comparableFiles(out)
            // config.json and checkpoint.json's trainConfigHash name the opponents as given.
            files["config.json"] = nil
            files["checkpoint.json"] = files["checkpoint.json"]?.replacingOccurrences(
                of: #""trainConfigHash": "[0-9a-f]+""#, with: "\"trainConfigHash\": \"-\"", options: .regularExpression)
            return files
        }
        let reference = try train("constant:action=1,name=K", "constant:action=2,name=K2", workers: 1, name: "builtin")
        for workers in [1, 2] {
            let got = try train("process:cmd=\(agent) 1,name=K", "process:cmd=\(agent) 2,name=K2", workers: workers,
                                name: "external-w\(workers)")
            #expect(got.keys.sorted() == reference.keys.sorted())
            for name in reference.keys.sorted() {
                #expect(got[name] == reference[name], "\(workers) workers: \(name) differs from the built-in opponent's run")
            }
            let logs = CLI.files(in: dir.appendingPathComponent("external-w\(workers)/agents"))
            #expect(logs.contains { $0.hasPrefix("K-") } && logs.contains { $0.hasPrefix("K2-") }, "\(logs)")
        }

        let fileConfig = dir.appendingPathComponent("f.json").path
        try #"{ "preset": "smoke", "iterations": 1, "episodeSteps": 100, "evalEpisodes": 1, "evalSteps": 100, "opponent": "process:cmd=\#(agent) 1,name=K" }"#
            .write(toFile: fileConfig, atomically: true, encoding: .utf8)
        let refused = try GymTrainProcess.run(["train", "--config", fileConfig, "--out", dir.appendingPathComponent("f1").path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("agent K: was read from a file") && refused.stderr.contains("--allow-agent-programs"),
                "\(refused.stderr)")
        let allowed = try GymTrainProcess.run(["train", "--config", fileConfig, "--allow-agent-programs",
                                               "--out", dir.appendingPathComponent("f2").path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}

/// The C agent where the other tests do not seat it: `render` (named on the
/// command line, not replayed) and Breakout (eval, tournament); each gives
/// what the built-in `constant` with the same action gives, byte for byte.
struct ExternalAgentRenderAndBreakoutTests {
    @Test func renderingTheCAgentDrawsTheBuiltInPolicysEpisode() throws {
        let dir = GymTrainProcess.temporaryFolder("render-ext")
        let agent = "process:cmd=\(try ExternalAgentCommandTests.agent("constant_agent")) 1,name=K"
        var outputs: [String] = []
        for (k, spec) in [agent, "constant:action=1,name=K"].enumerated() {
            let gif = dir.appendingPathComponent("r\(k).gif").path
            let r = try GymTrainProcess.run(["render", "--agent", spec, "--opponent", "tracker:noise=2", "--seed", "4",
                                             "--episode", "1", "--max-steps", "0", "--every", "50", "--gif", gif])
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(r.stdout.replacingOccurrences(of: gif, with: "GIF"))
        }
        #expect(outputs[0] == outputs[1] && outputs[0].contains("K [top]"), "\(outputs)")
        let a = try Data(contentsOf: dir.appendingPathComponent("r0.gif")), b = try Data(contentsOf: dir.appendingPathComponent("r1.gif"))
        #expect(a == b && a.starts(with: Array("GIF89a".utf8)))
    }

    @Test(arguments: ["eval", "tournament"])
    func theCAgentPlaysBreakoutAsTheBuiltInPolicy(command: String) throws {
        let dir = GymTrainProcess.temporaryFolder("breakout-ext-\(command)")
        let agent = "process:cmd=\(try ExternalAgentCommandTests.agent("constant_agent")) 2,name=K"
        let builtIn = "constant:action=2,name=K"
        func arguments(_ spec: String) -> [String] {
            command == "eval" ? ["eval", "--game", "breakout", "--agent", spec, "--episodes", "3"]
                : ["tournament", "--game", "breakout", "--agent", spec, "--agent", "tracker", "--episodes", "3"]
        }
        let files = command == "eval" ? ["episodes.csv", "summary.json"] : ["matches.jsonl", "ratings.csv", "scores.csv"]
        for (k, spec) in [agent, builtIn].enumerated() {
            let r = try GymTrainProcess.run(arguments(spec) + ["--workers", "2", "--out", dir.appendingPathComponent("o\(k)").path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for name in files {
            let got = try String(contentsOf: dir.appendingPathComponent("o0/\(name)"), encoding: .utf8)
                .replacingOccurrences(of: agent, with: builtIn)
                .replacingOccurrences(of: #""program":\{[^}]*\},"#, with: "", options: .regularExpression)
            #expect(got == (try String(contentsOf: dir.appendingPathComponent("o1/\(name)"), encoding: .utf8)), "\(name)")
        }
        if command == "tournament" {
            let lines = try String(contentsOf: dir.appendingPathComponent("o0/matches.jsonl"), encoding: .utf8).split(separator: "\n")
            #expect(lines.filter { $0.contains(#""program":{"name":"K","file":null,"sha256":null}"#) }.count == 3, "\(lines)")
        }
    }
}
