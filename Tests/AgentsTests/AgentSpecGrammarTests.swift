import Testing
@testable import Agents
import Gym

@Suite struct AgentSpecGrammarTests {
    @Test func parsesEveryKindWithParametersAndDisplayName() throws {
        #expect(try AgentSpec.parse("random").kind == .random)
        #expect(try AgentSpec.parse(" tracker ").kind == .tracker(PongTracker.Skill()))
        let t = try AgentSpec.parse("tracker:reaction=3,noise=0.2,speed=0.8,predict=false,name=Slow")
        #expect(t.kind == .tracker(PongTracker.Skill(reaction: 3, noise: 0.2, speed: 0.8, predict: false)))
        #expect(t.displayName == "Slow")
        #expect(t.text == "tracker:reaction=3,noise=0.2,speed=0.8,predict=false,name=Slow")
        #expect(try AgentSpec.parse("constant:action=2").kind == .constant(action: 2))
        #expect(try AgentSpec.parse("random:name=Monkey").displayName == "Monkey")
        // Without name= the display name is the spec itself.
        #expect(try AgentSpec.parse("tracker:noise=2").displayName == "tracker:noise=2")
    }

    /// Every error names the problem and what is allowed.
    @Test(arguments: [
        ("", AgentSpecError.empty, "agents are: random, tracker, constant, linear, process"),
        ("   ", .empty, "agents are:"),
        ("tracer", .unknownKind("tracer", allowed: AgentSpec.kinds), "unknown agent \"tracer\"; agents are: random, tracker, constant, linear, process"),
        ("random,name=x", .unknownKind("random,name=x", allowed: AgentSpec.kinds), "agents are:"),
        ("tracker:noise", .malformedParameter(spec: "tracker:noise", part: "noise"), "is not key=value"),
        ("tracker:depth=3", .unknownParameter(kind: "tracker", key: "depth", allowed: ["reaction", "noise", "speed", "predict", "aim", "name"]),
         "allowed: reaction, noise, speed, predict, aim, name"),
        ("random:seed=3", .unknownParameter(kind: "random", key: "seed", allowed: ["name"]), "allowed: name"),
        ("tracker:noise=1,noise=2", .duplicateParameter(kind: "tracker", key: "noise"), "given twice"),
        ("tracker:reaction=31", .badValue(kind: "tracker", key: "reaction", value: "31", allowed: "an integer in 0 ... 30"), "allowed: an integer in 0 ... 30"),
        ("tracker:reaction=1.5", .badValue(kind: "tracker", key: "reaction", value: "1.5", allowed: "an integer in 0 ... 30"), "reaction=1.5"),
        ("tracker:noise=abc", .badValue(kind: "tracker", key: "noise", value: "abc", allowed: "a number in 0.0 ... 4.0"), "a number in"),
        ("tracker:noise=nan", .badValue(kind: "tracker", key: "noise", value: "nan", allowed: "a number in 0.0 ... 4.0"), "a number in"),
        ("tracker:speed=0", .badValue(kind: "tracker", key: "speed", value: "0", allowed: "a number in 0.05 ... 1.0"), "speed=0"),
        ("tracker:predict=yes", .badValue(kind: "tracker", key: "predict", value: "yes", allowed: "true or false"), "true or false"),
        ("constant:action=9", .badValue(kind: "constant", key: "action", value: "9", allowed: "an integer in 0 ... 4"), "0 ... 4"),
        ("tracker:name=", .badValue(kind: "tracker", key: "name", value: "", allowed: "a non-empty name"), "a non-empty name"),
        ("linear", .badValue(kind: "linear", key: "path", value: "", allowed: "a checkpoint file, as linear:PATH or linear:path=PATH"),
         "allowed: a checkpoint file"),
        ("linear:x.json,selection=best", .badValue(kind: "linear", key: "selection", value: "best", allowed: "greedy or softmax"),
         "allowed: greedy or softmax"),
        ("linear:x.json,temperature=2", .unknownParameter(kind: "linear", key: "temperature", allowed: ["path", "selection", "name"]),
         "allowed: path, selection, name"),
    ])
    func rejectsBadSpecsWithAllowedValues(text: String, expected: AgentSpecError, fragment: String) {
        do {
            let spec = try AgentSpec.parse(text)
            Issue.record("\"\(text)\" parsed as \(spec.kind); expected \(expected)")
        } catch {
            #expect(error == expected, "spec \"\(text)\"")
            #expect(error.description.contains(fragment), "spec \"\(text)\": \(error.description)")
        }
    }

    @Test func unreadableCheckpointIsOneClearError() {
        do {
            _ = try AgentSpec.parse("linear:/nonexistent/policy.json")
            Issue.record("a missing checkpoint parsed")
        } catch {
            guard case .checkpoint(.unreadable(path: "/nonexistent/policy.json", reason: _)) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.hasPrefix("agent linear: cannot read checkpoint /nonexistent/policy.json"))
        }
    }
}
