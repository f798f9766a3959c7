@testable import Agents
import Foundation
import Gym
import Testing

/// The gym's side of the external agent protocol, against the C clients of
/// tests/agents (compiled here with `cc`): a good agent plays; each fault
/// gives one error naming the agent, where, what, and its stderr.
struct AgentConnectionTests {
    static let hello = AgentProtocol.Hello(pixels: false, width: 12, height: 1, actions: 3, games: 4, seats: 2,
                                           configHash: 0x1234, game: "pong", config: "{}")

    func connect(_ program: String, _ args: [String] = [], actSeconds: Double = 10,
                 byeSeconds: Double = 5) throws -> (AgentConnection, String) {
        let binary = try ExternalAgentFixtures.compiled(program)
        let log = NSTemporaryDirectory() + "agent-\(UUID().uuidString).log"
        let file = ExternalAgentFile(command: [binary] + args, actSeconds: actSeconds, byeSeconds: byeSeconds)
        return (try AgentConnection(file: file, displayName: "A", hello: Self.hello, logPath: log), log)
    }

    func step(_ c: AgentConnection, games: [Int32]) throws -> [Int32] {
        var actions = [Int32](repeating: -1, count: games.count)
        try games.withUnsafeBufferPointer { g in
            try actions.withUnsafeMutableBufferPointer { a in
                try c.act(count: g.count, games: g.baseAddress!, actions: a.baseAddress!) { k, row in
                    row.storeBytes(of: Float(k), as: Float.self)
                }
            }
        }
        return actions
    }

    @Test func theCAgentShakesHandsPlaysAndExitsCleanly() throws {
        let (c, _) = try connect("constant_agent", ["2"])
        #expect(c.agentName == "c-constant")
        c.start(game: 3, seat: 1, seed: 42)
        c.start(game: 0, seat: 0, seed: 43)
        #expect(try step(c, games: [3, 0]) == [2, 2])
        c.end(game: 3)
        #expect(try step(c, games: [0]) == [2])
        #expect(c.close() == 0)
    }

    /// (fault, words the error must hold)
    static let faults: [(String, [String])] = [
        ("exit", ["exited with status 3", "faulty_agent: exit at act 2"]),
        ("crash", ["killed by signal 6 (SIGABRT)", "faulty_agent: crash at act 2"]),
        ("hang", ["no reply within its time limit of 0.5 s", "faulty_agent: hang at act 2"]),
        ("junk", ["junk on its standard output", "as text \"hello fr\""]),
        ("count", ["sent 0 actions", "1 actions in 8 bytes expected"]),
        ("range", ["action 7 is out of range; actions are 0 ... 2", "at game 1, step 1"]),
        ("error", ["it reported an error: no policy loaded"]),
    ]

    @Test(arguments: faults)
    func eachFaultIsOneClearErrorWithItsStderr(fault: String, words: [String]) throws {
        let (c, _) = try connect("faulty_agent", [fault], actSeconds: 0.5)
        c.start(game: 1, seat: 0, seed: 7)
        #expect(try step(c, games: [1]) == [0])
        do {
            _ = try step(c, games: [1])
            Issue.record("\(fault): no error")
        } catch let error as AgentFault {
            let text = error.description
            #expect(text.hasPrefix("agent A: ("), "\(text)")
            #expect(text.contains("at game 1, step 1"), "\(text)")
            for w in words { #expect(text.contains(w), "\(fault): \(w) not in \(text)") }
            #expect(kill(c.child.pid, 0) != 0, "\(fault): the agent process still runs")
        }
    }

    @Test func aProtocolVersionMismatchIsRefusedAtTheHandshake() throws {
        #expect {
            _ = try connect("faulty_agent", ["version"])
        } throws: { error in
            "\(error)".contains("speaks protocol version 9; this gym speaks 1")
        }
    }

    @Test func aMissingProgramIsNamed() throws {
        let file = ExternalAgentFile(command: ["/nonexistent/agent-program"])
        #expect {
            _ = try AgentConnection(file: file, displayName: "B", hello: Self.hello,
                                    logPath: NSTemporaryDirectory() + "agent-\(UUID().uuidString).log")
        } throws: { error in
            "\(error)".contains("agent B: cannot start /nonexistent/agent-program")
        }
    }

    @Test func anAgentIgnoringByeIsKilledAfterItsTimeLimit() throws {
        let (c, _) = try connect("faulty_agent", ["linger"], byeSeconds: 0.2)
        let pid = c.child.pid
        #expect(c.close() == nil)
        #expect(kill(pid, 0) != 0)
    }
}

/// The C clients of tests/agents, compiled once per test process.
enum ExternalAgentFixtures {
    static let lock = NSLock()
    nonisolated(unsafe) static var built: [String: String] = [:]

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The path of tests/agents/NAME.c compiled with `cc`.
    static func compiled(_ name: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = built[name] { return path }
        let folder = NSTemporaryDirectory() + "pbgym-agents-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let out = folder + "/" + name
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-O2", "-o", out, root.appendingPathComponent("tests/agents/\(name).c").path]
        try cc.run()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw AgentFault(agent: name, message: "cc failed") }
        built[name] = out
        return out
    }
}
