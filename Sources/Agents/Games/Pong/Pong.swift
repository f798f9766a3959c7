import Gym

/// Pong as Agents plays it: two seats (0 = bottom, 1 = top), egocentric
/// observations (one policy plays either side), records of whole games.
public enum Pong: PlayableGame {
    public typealias Config = PongConfig
    public typealias Vector = PongBatch
    public typealias Record = PongMatchResult

    /// A game's running books: the record so far and the side the next serve heads to.
    public struct Tally {
        var record: PongMatchResult
        var receiver: PongSide
    }

    public static var seats: Int { 2 }

    public static var noEvents: PongEvents { PongEvents() }

    public static func policyTarget(_ config: PongConfig) -> PolicyTarget { .pong(config) }

    /// A saved policy must be a Pong policy of this build's observation
    /// layout with as many actions as `config` allows.
    public static func check(_ spec: AgentSpec, config: PongConfig) throws(AgentSpecError) {
        try spec.checkPolicy(policyTarget(config))
    }

    public static func makeTracker(config: PongConfig, skill: TrackerSkill) -> PongTracker {
        PongTracker(config: config, skill: skill)
    }

    public static func makeBatchTracker(skill: TrackerSkill, context: AgentContext<Self>) -> any BatchAgent {
        let rules = makeTracker(config: context.config, skill: skill)
        guard let batch = context.vector, PongLaneTracker.pays(for: skill, seating: context.seating, games: batch.count)
        else {
            return TrackerBatch(rules, games: context.games, observationCount: context.target.inputs)
        }
        return PongLaneTracker(rules, batch: batch, seating: context.seating, observationCount: context.target.inputs)
    }

    /// Trackers seated in every seat of the context's vector play as one
    /// group (``PongTrackerSeats``); elsewhere each is made alone.
    public static func makeBatchTrackers(skills: [TrackerSkill], context: AgentContext<Self>) -> [any BatchAgent] {
        guard !skills.isEmpty, let group = PongSeatedTracker.make(skills, context: context) else {
            return skills.map { makeBatchTracker(skill: $0, context: context) }
        }
        return group
    }

    public static func beginRecord(_ vector: PongBatch, _ i: Int, seed: UInt64) -> Tally {
        let state = vector.state(i)
        return Tally(record: PongMatchResult(seed: seed, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                             hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0),
                     receiver: state.ballVY < 0 ? .bottom : .top)
    }

    /// ``PongMatch``'s bookkeeping of one step's events.
    @inline(__always)
    public static func book(_ tally: inout Tally, _ events: PongEvents) {
        tally.record.book(events, receiver: &tally.receiver)
    }

    /// No hit and no point: the books count nothing else.
    @inline(__always)
    public static func booksNothing(_ events: PongEvents) -> Bool { booked(events) == 0 }

    /// ``booksNothing(_:)`` of each, without a branch per step.
    @inline(__always)
    public static func booksNothing(_ events: UnsafePointer<PongEvents>, count: Int) -> Bool {
        var any: Int32 = 0
        for k in 0 ..< count { any |= booked(events[k]) }
        return any == 0
    }

    /// Non-zero where a step had a hit or a point.
    @inline(__always)
    static func booked(_ events: PongEvents) -> Int32 {
        events.hitsBottom | events.hitsTop | events.pointsBottom | events.pointsTop
    }

    public static func endRecord(_ tally: Tally, _ vector: PongBatch, _ i: Int) -> PongMatchResult {
        let state = vector.state(i)
        var record = tally.record
        record.scoreBottom = Int(state.scoreBottom)
        record.scoreTop = Int(state.scoreTop)
        record.steps = Int(state.steps)
        record.end = state.end
        return record
    }

    public static func playAlone(config: PongConfig, seed: UInt64, agents: inout [any Agent]) -> PongMatchResult {
        var bottom = agents[0], top = agents[1]
        let record = PongMatch.play(config: config, seed: seed, bottom: &bottom, top: &top)
        agents[0] = bottom; agents[1] = top
        return record
    }
}
