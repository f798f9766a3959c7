import Testing
import Gym
@testable import Agents

/// The steering rule written once (``TrackerSteeringState``) against the
/// rule as first written for one game (``Plain``): the reference
/// (``TrackerSteering``), a batch's columns game by game, and a group's
/// columns eight games at a time in lanes, each game with its own skill,
/// make its moves and its draws exactly.
@Suite struct TrackerSteeringTests {
    /// The rule for one game as first written: targets kept `reaction + 1`
    /// deep, steps seen counted without a cap, the move credit tested before
    /// the direction is taken.
    struct Plain {
        let skill: TrackerSkill
        var rng: Xoshiro256
        var history: [Float]
        var head = 0, seen = 0
        var aimOffset: Float = 0, incoming = false, moveCredit: Float = 0

        init(skill: TrackerSkill, seed: UInt64) {
            self.skill = skill
            rng = Xoshiro256(seed: seed)
            history = [Float](repeating: 0, count: skill.reaction + 1)
        }

        /// The direction (-1, 0, +1) of one step.
        mutating func step(incoming now: Bool, target: Float, own: Float, halfWidth: Float, deadZone: Float) -> Float {
            if now, !incoming, skill.noise > 0 { aimOffset = rng.nextSigned() * skill.noise * halfWidth }
            incoming = now
            history[head] = target + aimOffset
            let delayed = seen >= skill.reaction ? history[(head + 1) % history.count] : own
            head = (head + 1) % history.count
            seen += 1
            moveCredit += skill.speed
            guard moveCredit >= 1 else { return 0 }
            moveCredit -= 1
            return delayed < own - deadZone ? -1 : delayed > own + deadZone ? 1 : 0
        }
    }

    static let skills = [TrackerSkill(), TrackerSkill(reaction: 1), TrackerSkill(reaction: 3, noise: 0.5),
                         TrackerSkill(noise: 4), TrackerSkill(speed: 0.6), TrackerSkill(reaction: 30, noise: 4, speed: 0.05),
                         TrackerSkill(reaction: 7, noise: 1.5, speed: 0.8), TrackerSkill(reaction: 12, noise: 3, speed: 0.4)]

    @Test func everyFormStepsAsTheRuleFirstWritten() {
        let halfWidth: Float = 3, deadZone: Float = 0.5, n = Self.skills.count
        var plain = (0 ..< n).map { Plain(skill: Self.skills[$0], seed: UInt64($0 + 1)) }
        var reference = (0 ..< n).map { TrackerSteering(skill: Self.skills[$0], seed: UInt64($0 + 1)) }
        let batches = Self.skills.map { TrackerSteeringColumns(skill: $0, games: 1) }
        let group = TrackerSteeringColumns(games: n, ring: 32)
        for j in 0 ..< n {
            batches[j].reset(0, seed: UInt64(j + 1))
            group.reset(j, skill: Self.skills[j], seed: UInt64(j + 1))
        }
        var inputs = Xoshiro256(seed: 99)
        var now = [Bool](repeating: false, count: n)
        for step in 0 ..< 600 {
            var own = SIMD8<Float>(), target = SIMD8<Float>(), expected = SIMD8<Float>()
            for j in 0 ..< n {
                if inputs.nextSigned() > 0.4 { now[j].toggle() }
                own[j] = 50 + 40 * inputs.nextSigned()
                target[j] = own[j] + 6 * inputs.nextSigned()
                expected[j] = plain[j].step(incoming: now[j], target: target[j], own: own[j], halfWidth: halfWidth,
                                            deadZone: deadZone)
                reference[j].track(incoming: LaneFlag(now[j]), halfWidth: halfWidth)
                let r = reference[j].steer(toward: target[j] + reference[j].aimOffset, from: own[j], deadZone: deadZone)
                var cursor = batches[j].cursor(0)
                cursor.track(incoming: LaneFlag(now[j]), halfWidth: halfWidth)
                let b = cursor.steer(toward: target[j] + cursor.aimOffset, from: own[j], deadZone: deadZone)
                #expect(r == expected[j] && b == expected[j], "step \(step), skill \(j): \(r), \(b), not \(expected[j])")
            }
            var lanes = group.lanes(0)
            lanes.track(incoming: SIMD8<Float>(now.map { $0 ? 1 : 0 }) .> 0, halfWidth: halfWidth)
            let l = lanes.steer(toward: target + lanes.aimOffset, from: own, deadZone: deadZone)
            #expect(l == expected, "step \(step): lanes \(l), not \(expected)")
        }
        // Every form drew as often as the rule: the generators are where the rule's are.
        for j in 0 ..< n {
            let next = plain[j].rng.next()
            #expect(reference[j].rng.next() == next && batches[j].generators[0].next() == next
                    && group.generators[j].next() == next, "skill \(j)'s generator")
        }
    }

    /// Columns on one clock (a group's seats: ``TrackerSteeringColumns/sharedClock``)
    /// step as the rule first written, in lanes and game by game, with each
    /// game's episodes restarting at steps of their own (a new skill and
    /// seed): the rings' rows start anywhere, and the moves do not change.
    @Test func oneClockStepsAsTheRuleFirstWritten() {
        let halfWidth: Float = 3, deadZone: Float = 0.5, n = Self.skills.count
        // Games 0 ..< 8 in lanes, 8 ..< 11 game by game.
        let games = n + 3
        let group = TrackerSteeringColumns(games: games, ring: 32, sharedClock: true)
        var plain = [Plain]()
        var episode = [Int](repeating: 0, count: games)
        func restart(_ g: Int) {
            let skill = Self.skills[(g + 3 * episode[g]) % n], seed = UInt64(100 * g + episode[g])
            let fresh = Plain(skill: skill, seed: seed)
            if g < plain.count { plain[g] = fresh } else { plain.append(fresh) }
            group.reset(g, skill: skill, seed: seed)
            episode[g] += 1
        }
        for g in 0 ..< games { restart(g) }
        var inputs = Xoshiro256(seed: 7)
        var now = [Bool](repeating: false, count: games)
        for step in 0 ..< 900 {
            for g in 0 ..< games where inputs.nextSigned() > 0.97 { restart(g) }
            group.tick()
            var own = SIMD8<Float>(), target = SIMD8<Float>(), expected = SIMD8<Float>()
            var ownRest = [Float](), targetRest = [Float](), expectedRest = [Float]()
            for g in 0 ..< games {
                if inputs.nextSigned() > 0.4 { now[g].toggle() }
                let o = 50 + 40 * inputs.nextSigned(), t = o + 6 * inputs.nextSigned()
                let e = plain[g].step(incoming: now[g], target: t, own: o, halfWidth: halfWidth, deadZone: deadZone)
                if g < n { own[g] = o; target[g] = t; expected[g] = e } else {
                    ownRest.append(o); targetRest.append(t); expectedRest.append(e)
                }
            }
            var lanes = group.lanes(0)
            lanes.track(incoming: SIMD8<Float>(now[0 ..< n].map { $0 ? 1 : 0 }) .> 0, halfWidth: halfWidth)
            let l = lanes.steer(toward: target + lanes.aimOffset, from: own, deadZone: deadZone)
            #expect(l == expected, "step \(step): lanes \(l), not \(expected)")
            for k in 0 ..< games - n {
                var cursor = group.cursor(n + k)
                cursor.track(incoming: LaneFlag(now[n + k]), halfWidth: halfWidth)
                let c = cursor.steer(toward: targetRest[k] + cursor.aimOffset, from: ownRest[k], deadZone: deadZone)
                #expect(c == expectedRest[k], "step \(step), game \(n + k): \(c), not \(expectedRest[k])")
            }
        }
        #expect(episode.allSatisfy { $0 > 3 }, "every game restarted")
    }
}
