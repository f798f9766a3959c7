import Testing
import Gym
@testable import Agents

/// Breakout's trackers in the slot engine play as groups
/// (``BreakoutTrackerGroup``, one per aim's switches): every tracker of a
/// roster is a member, their games need no observation rows, one write per
/// step serves every member, and balance takes this path.
@Suite struct BreakoutTrackerGroupTests {
    static let skills = ["tracker", "tracker:reaction=3", "tracker:noise=1.25", "tracker:speed=0.2",
                         "tracker:predict=false", "tracker:aim=false",
                         "tracker:reaction=30,noise=4,speed=0.05,predict=false"]

    /// The slot engine's agents of a roster of trackers only are members of
    /// one group per aim's switches, and the games they hold need no rows;
    /// a step's one write gives every held game its move and leaves free
    /// games alone; with another kind in the roster, or outside the slot
    /// engine's seating, each tracker is made alone.
    @Test func aRosterOfTrackersSharesGroups() throws {
        var config = BreakoutConfig()
        config.maxSteps = 500
        let slots = 19
        let vector = Breakout.makeVector(config: config, count: slots)
        let roster = try Self.skills.map { try AgentSpec.parse($0) }
        let agents = try SlotAgents<Breakout>(roster, config: config, vector: vector, slots: slots)
        let members = agents.agents.compactMap { $0 as? BreakoutGroupedTracker }
        #expect(members.count == Self.skills.count, "every tracker is a member")
        let aiming = members.filter { $0.skill.predict && $0.skill.aim }
        #expect(aiming.count == 4 && aiming.allSatisfy { $0.group === aiming[0].group }, "one group per aim's switches")
        #expect(members[4].group === members[6].group && members[4].group !== aiming[0].group)
        #expect(members[5].group !== aiming[0].group && members[5].group !== members[4].group)
        // Slots 0, 2 and 9 (in the lanes) and 17 (past them) held by the first group's members.
        try agents.start(0, slot: 0, seat: 0, seed: 1)
        try agents.start(2, slot: 2, seat: 0, seed: 2)
        try agents.start(3, slot: 9, seat: 0, seed: 3)
        try agents.start(1, slot: 17, seat: 0, seed: 4)
        let rows = try #require(agents.observedRows)
        #expect(rows[0] == 0 && rows[2] == 0 && rows[9] == 0 && rows[17] == 0)
        #expect(rows[3] == 1, "a free game's row is written")
        let group = aiming[0].group
        let observations = [Float](repeating: 0, count: slots * BreakoutPhysics.observationCount(for: config))
        var actions = [Int32](repeating: -1, count: slots)
        let before = BreakoutTrackerGroup.rowsFoundWritten.load(ordering: .relaxed)
        try observations.withUnsafeBufferPointer { o in
            try actions.withUnsafeMutableBufferPointer { a in
                try agents.act(observations: o.baseAddress!, stride: BreakoutPhysics.observationCount(for: config),
                               actions: a.baseAddress!)
            }
        }
        #expect(group.step.pointee.foundWritten == 4, "the held games' rows were written by the step's one write")
        for g in 0 ..< slots {
            #expect([0, 2, 9, 17].contains(g) == (actions[g] != -1), "game \(g): \(actions[g])")
        }
        // The process-wide count takes the group's rows once its last game ends.
        for slot in [0, 2, 9, 17] { try agents.end(slot: slot) }
        #expect(BreakoutTrackerGroup.rowsFoundWritten.load(ordering: .relaxed) - before >= 4)
        let mixed = try SlotAgents<Breakout>(roster + [AgentSpec.parse("random")], config: config, vector: vector,
                                             slots: slots)
        #expect(!mixed.agents.contains { $0 is BreakoutGroupedTracker })
        let alone = Breakout.makeBatchTrackers(skills: [TrackerSkill(), TrackerSkill(noise: 1)], context: AgentContext(
            config: config, seating: .oneSeat(0, slots: 8, seats: 1), vector: vector))
        #expect(!alone.contains { $0 is BreakoutGroupedTracker })
    }

    /// A balance run of several tracker scenarios plays them through one
    /// group: every step's rows of its trackers are written by the group's
    /// one write (a fall back to a tracker per scenario writes none), and
    /// each scenario's metrics are those of the scenario played by itself.
    @Test func balanceTrackersPlayAsOneGroup() throws {
        let set = try BalanceScenarioSet.decode("""
            { "game": "breakout", "config": { "preset": "classic", "maxSteps": 1500 }, "seed": 8,
              "scenarios": [ { "name": "tracker", "a": "tracker", "games": 9 },
                             { "name": "tracker-noisy", "a": "tracker:noise=1.25", "games": 9 },
                             { "name": "tracker-slow", "a": "tracker:speed=0.2", "games": 9 } ] }
            """, source: "b.json")
        let before = BreakoutTrackerGroup.rowsFoundWritten.load(ordering: .relaxed)
        let results = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 1))
        let written = BreakoutTrackerGroup.rowsFoundWritten.load(ordering: .relaxed) - before
        var steps = 0
        for result in results {
            let length = try #require(result.metrics.first { $0.name == "episodeLength" })
            steps += Int((length.value * Double(result.games)).rounded())
        }
        #expect(steps > 0 && written >= steps, "\(written) rows written by a group's one write in \(steps) steps")
        guard case let .breakout(config) = set.rules else { Issue.record("not a breakout set"); return }
        for (s, scenario) in set.scenarios.enumerated() {
            let alone = try BreakoutDuplicate.run(config: config, agents: [scenario.a], episodes: scenario.games,
                                                  seed: set.scenarioSeed(s), runner: ParallelRunner(workers: 1))[0]
            #expect(results[s].metrics == BreakoutBalance.metrics(alone), "scenario \(scenario.name)")
        }
    }
}
