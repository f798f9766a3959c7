import Gym

/// ``TrackerSteering`` for many games, column by column (each game's
/// generator, target history, head, steps seen, aim error, incoming flag and
/// move credit in its own column, allocated once): a batched tracker steers
/// game `g` through ``cursor(_:)``, with exactly the per-game rules.
///
/// Skills that make a rule a constant skip its work, with the same result:
/// `reaction` 0 keeps no history (the delayed target is this step's:
/// `history[0]` is written then read back), `speed` 1 keeps no credit
/// (`0 + 1 ≥ 1`, then `1 − 1 = 0`, every step), `noise` 0 never draws.
final class TrackerSteeringColumns {
    let skill: TrackerSkill
    let games: Int
    /// Targets of the last `reaction + 1` steps per game (game `g`'s ring at `g × depth`).
    let depth: Int
    let generators: UnsafeMutablePointer<Xoshiro256>
    let history: UnsafeMutablePointer<Float>
    let head: UnsafeMutablePointer<Int32>, seen: UnsafeMutablePointer<Int32>
    let aimOffset: UnsafeMutablePointer<Float>, moveCredit: UnsafeMutablePointer<Float>
    let incoming: UnsafeMutablePointer<Bool>

    init(skill: TrackerSkill, games: Int) {
        self.skill = skill
        self.games = games
        depth = skill.reaction + 1
        generators = .allocate(capacity: max(games, 1))
        generators.initialize(repeating: Xoshiro256(seed: 0), count: max(games, 1))
        history = .allocate(capacity: max(games * depth, 1))
        history.initialize(repeating: 0, count: max(games * depth, 1))
        head = .allocate(capacity: max(games, 1)); head.initialize(repeating: 0, count: max(games, 1))
        seen = .allocate(capacity: max(games, 1)); seen.initialize(repeating: 0, count: max(games, 1))
        aimOffset = .allocate(capacity: max(games, 1)); aimOffset.initialize(repeating: 0, count: max(games, 1))
        moveCredit = .allocate(capacity: max(games, 1)); moveCredit.initialize(repeating: 0, count: max(games, 1))
        incoming = .allocate(capacity: max(games, 1)); incoming.initialize(repeating: false, count: max(games, 1))
    }

    deinit {
        generators.deallocate(); history.deallocate(); head.deallocate(); seen.deallocate()
        aimOffset.deallocate(); moveCredit.deallocate(); incoming.deallocate()
    }

    /// Game `g`'s episode starts (``TrackerSteering/reset(seed:)``). `g` must
    /// be one of the agent's games (`0 ..< games`): the columns are raw
    /// memory, so a game number from another seating (every seat's `2i + 1`
    /// given to an agent of one seat) would write past them.
    func reset(_ g: Int, seed: UInt64) {
        precondition(g >= 0 && g < games, "game \(g) is not one of the agent's \(games) games")
        generators[g] = Xoshiro256(seed: seed)
        head[g] = 0; seen[g] = 0; aimOffset[g] = 0; incoming[g] = false; moveCredit[g] = 0
    }

    /// Game `g`'s steering (`g` in `0 ..< games`, as for ``reset(_:seed:)``).
    @inline(__always)
    func cursor(_ g: Int) -> Cursor {
        precondition(g >= 0 && g < games, "game \(g) is not one of the agent's \(games) games")
        return Cursor(g: g, depth: depth, reaction: Int32(skill.reaction), noise: skill.noise, speed: skill.speed,
               generators: generators, history: history, head: head, seen: seen, aimOffsets: aimOffset,
               moveCredit: moveCredit, incoming: incoming)
    }

    /// One game's steering in the columns (the columns' pointers and the
    /// skill, copied: no reference to the columns is kept per row).
    struct Cursor: TrackerSteerer {
        let g: Int, depth: Int, reaction: Int32
        let noise: Float, speed: Float
        let generators: UnsafeMutablePointer<Xoshiro256>
        let history: UnsafeMutablePointer<Float>
        let head: UnsafeMutablePointer<Int32>, seen: UnsafeMutablePointer<Int32>
        let aimOffsets: UnsafeMutablePointer<Float>, moveCredit: UnsafeMutablePointer<Float>
        let incoming: UnsafeMutablePointer<Bool>

        var aimOffset: Float {
            @inline(__always) get { aimOffsets[g] }
        }

        @inline(__always)
        mutating func track(incoming now: Bool, halfWidth: Float) {
            if noise > 0, now, !incoming[g] {
                aimOffsets[g] = generators[g].nextSigned() * noise * halfWidth
            }
            incoming[g] = now
        }

        @inline(__always)
        mutating func move(toward target: Float, from own: Float, deadZone: Float) -> TrackerSteering.Move {
            var delayed = target
            if depth > 1 {
                let ring = history + g * depth
                let h = Int(head[g])
                ring[h] = target
                let next = h + 1 == depth ? 0 : h + 1
                delayed = seen[g] >= reaction ? ring[next] : own
                head[g] = Int32(next)
                // `seen` only needs to pass `reaction`; capped so it never overflows.
                if seen[g] < Int32(depth) { seen[g] += 1 }
            }
            if speed != 1 {
                let credit = moveCredit[g] + speed
                guard credit >= 1 else { moveCredit[g] = credit; return .stay }
                moveCredit[g] = credit - 1
            }
            return TrackerSteering.move(TrackerSteering.direction(toward: delayed, from: own, deadZone: deadZone))
        }
    }
}
