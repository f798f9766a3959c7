import Gym

/// ``TrackerSteering`` for many games, column by column (each game's skill,
/// generator, target ring, head, aim error, incoming flag and move credit
/// in its own ``Column``): a batched tracker steers
/// game `g` through ``cursor(_:)``, a group of trackers games `g ..< g + 8`
/// at once through ``lanes(_:)``, with exactly the per-game rule
/// (``TrackerSteeringState``).
///
/// The rings of the reaction delay take one of two forms. Each game's own
/// (a ring of `ring` targets and its head), for games that step when they
/// are asked; or one clock for all the columns' games (`sharedClock`, for
/// games that all step together, as a group's seats do: ``tick()`` once per
/// step), whose rings are rows: row `t` holds every game's target of step
/// `t` (modulo `ring`), so a step's targets of eight games go in with one
/// store and a game's delayed target is in the row `reaction` rows back.
/// The rows are kept twice (row `t` again at `t + ring`), so that the row
/// `reaction` back from row `t + ring` needs no wrapping: a game's delayed
/// target is at a fixed offset (``lag``) from the current row.
/// The delay only looks back within the game's episode (a game's ring is
/// filled with NaN when it starts, and ``TrackerSteeringState`` uses `own`
/// for a NaN), so where a ring's first entry sits does not change a move:
/// both forms move alike.
final class TrackerSteeringColumns {
    let games: Int
    /// Each game's ring length (a power of two above every delay it is given).
    let ring: Int
    /// `ring - 1`, the rings' index mask.
    let mask: Int32
    /// Per game: the skill (`reaction`, the delay in steps, for its ring),
    /// then the steering (``TrackerSteering``'s fields; `incoming` 1 or 0).
    let delay: Column<Int32>
    let noise: Column<Float>, speed: Column<Float>
    let generators: Column<Xoshiro256>
    let aimOffset: Column<Float>, moveCredit: Column<Float>, incoming: Column<Float>
    let head: Column<Int32>
    /// Game `g`'s targets at `history + g × ring` (with ``sharedClock``:
    /// `2 × ring` rows of `games` targets); NaN where none of its episode
    /// was written yet (``TrackerSteeringState/delay(_:)``).
    let history: Column<Float>
    /// With ``sharedClock``: per game `g`, where its delayed target is
    /// from the current row's start in ``history`` (`(ring − reaction) ×
    /// games + g`, in the rows' second copy).
    let lag: Column<Int>
    /// Scratch: the eight lanes of ``Lanes/delay(_:)``.
    let scratch: Column<Float>
    /// Whether the games share one clock (the rings are rows: `history +
    /// t × games` holds step `t`'s targets); ``head`` is then unused.
    let sharedClock: Bool
    /// With ``sharedClock``: `clock[0]`, the current step's row offset
    /// (`(t mod ring) × games`).
    let clock: Column<Int>

    /// `games` games, each steered with `skill`.
    convenience init(skill: TrackerSkill, games: Int) {
        self.init(games: games, ring: TrackerSteering.ringLength(reaction: skill.reaction))
        for g in 0 ..< games { setSkill(g, skill) }
    }

    /// `games` games, each given its skill when it starts (``reset(_:skill:seed:)``),
    /// with delays below `ring` (a power of two); with `sharedClock`, all
    /// stepping together (``tick()`` once per step).
    init(games: Int, ring: Int, sharedClock: Bool = false) {
        precondition(ring > 0 && ring & (ring - 1) == 0, "a ring's length is a power of two")
        self.games = games
        self.ring = ring
        self.sharedClock = sharedClock
        mask = Int32(ring - 1)
        delay = Column(repeating: 0, count: games); noise = Column(repeating: 0, count: games)
        speed = Column(repeating: 1, count: games)
        generators = Column(repeating: Xoshiro256(seed: 0), count: games)
        aimOffset = Column(repeating: 0, count: games); moveCredit = Column(repeating: 0, count: games)
        incoming = Column(repeating: 0, count: games)
        head = Column(repeating: 0, count: games); lag = Column(repeating: 0, count: games)
        history = Column(repeating: .nan, count: games * ring * (sharedClock ? 2 : 1))
        scratch = Column(repeating: 0, count: 8)
        clock = Column(repeating: 0, count: 1)
    }

    /// With ``sharedClock``: the games' next step (the clock moves on one row).
    @inline(__always)
    func tick() {
        let next = clock[0] &+ games
        clock[0] = next == ring &* games ? 0 : next
    }

    /// Game `g`'s episode starts (``TrackerSteering/reset(seed:)``). `g` must
    /// be one of the agent's games (`0 ..< games`): the columns are raw
    /// memory, so a game number from another seating (every seat's `2i + 1`
    /// given to an agent of one seat) would write past them.
    func reset(_ g: Int, seed: UInt64) {
        precondition(g >= 0 && g < games, "game \(g) is not one of the agent's \(games) games")
        generators[g] = Xoshiro256(seed: seed)
        head[g] = 0; aimOffset[g] = 0; incoming[g] = 0; moveCredit[g] = 0
        if sharedClock {
            for row in 0 ..< 2 * ring { history[row * games + g] = .nan }
        } else {
            (history.base + g * ring).update(repeating: .nan, count: ring)
        }
    }

    /// Game `g`'s episode starts, steered with `skill`.
    func reset(_ g: Int, skill: TrackerSkill, seed: UInt64) {
        reset(g, seed: seed)
        setSkill(g, skill)
    }

    private func setSkill(_ g: Int, _ skill: TrackerSkill) {
        precondition(skill.reaction >= 0 && skill.reaction < ring, "a delay of \(skill.reaction) steps needs a longer ring")
        delay[g] = Int32(skill.reaction)
        noise[g] = skill.noise; speed[g] = skill.speed
        lag[g] = (ring - skill.reaction) * games + g
    }

    /// Entry `j` of `t` into game `g + j`'s ring and its target of
    /// `reaction` steps ago out in its place, for each `j < lanes` that
    /// `asked` holds (``TrackerSteering/delay(_:ring:head:reaction:mask:)``;
    /// the games keep their own rings, not ``sharedClock``).
    @inline(__always)
    func delay(_ t: UnsafeMutablePointer<Float>, games g: Int, _ lanes: Int, where asked: (Int) -> Bool = { _ in true }) {
        let history = self.history.base + g &* ring, head = self.head.base + g, delay = self.delay.base + g
        for j in 0 ..< lanes where asked(j) {
            t[j] = TrackerSteering.delay(t[j], ring: history + j &* ring, head: &head[j], reaction: delay[j], mask: mask)
        }
    }

    /// Game `g`'s steering (`g` in `0 ..< games`, as for ``reset(_:seed:)``).
    @inline(__always)
    func cursor(_ g: Int) -> Lanes<Float> {
        precondition(g >= 0 && g < games, "game \(g) is not one of the agent's \(games) games")
        return Lanes(self, g)
    }

    /// Games `g ..< g + 8`'s steering, lane `j` game `g + j`.
    @inline(__always)
    func lanes(_ g: Int) -> Lanes<SIMD8<Float>> {
        precondition(g >= 0 && g + 8 <= games, "games \(g) ..< \(g + 8) are not all the agent's \(games) games")
        return Lanes(self, g)
    }

    /// The steering of games `g ..< g + L.laneCount` in the columns, lane
    /// `j` game `g + j`. It lives within a call on the columns, so it holds
    /// them without counting a reference.
    struct Lanes<L: TrackerLane>: TrackerSteeringState {
        unowned(unsafe) let c: TrackerSteeringColumns
        let g: Int

        @inline(__always)
        init(_ c: TrackerSteeringColumns, _ g: Int) { self.c = c; self.g = g }

        var noise: L { column(c.noise.base) }
        var speed: L { column(c.speed.base) }
        var incoming: L { get { column(c.incoming.base) } nonmutating set { newValue.store(to: c.incoming.base + g) } }
        var aimOffset: L { get { column(c.aimOffset.base) } nonmutating set { newValue.store(to: c.aimOffset.base + g) } }
        var moveCredit: L {
            get { column(c.moveCredit.base) }
            nonmutating set { newValue.store(to: c.moveCredit.base + g) }
        }

        /// These games' entries of column `values`.
        @inline(__always)
        func column(_ values: UnsafeMutablePointer<Float>) -> L { L(loading: values + g) }

        @inline(__always)
        func nextSigned(lane j: Int) -> Float { c.generators[g &+ j].nextSigned() }

        @inline(__always)
        func delay(_ target: L) -> L {
            if c.sharedClock { return delayByClock(target) }
            let history = c.history.base + g &* c.ring, mask = c.mask
            let head = c.head.base + g, delay = c.delay.base + g
            guard L.laneCount > 1 else {
                return L(repeating: TrackerSteering.delay(target[lane: 0], ring: history, head: &head[0],
                                                          reaction: delay[0], mask: mask))
            }
            // The lanes pass through the columns' scratch, not a local
            // value written lane by lane, so that the selects on them stay
            // blends (docs/throughput.md, "Vectors built whole").
            let t = c.scratch.base
            target.store(to: t)
            c.delay(t, games: g, L.laneCount)
            return L(loading: t)
        }

        /// ``delay(_:)`` with the shared clock: the lanes' targets into the
        /// current row and its copy, one store each; lane `j`'s target of
        /// `reaction` steps ago at its ``lag`` from the current row (in the
        /// copies, `reaction` rows back from the current row's copy), the
        /// lanes gathered into a vector built whole (a vector loaded from
        /// lanes just stored one by one waits for the stores to retire).
        @inline(__always)
        func delayByClock(_ target: L) -> L {
            let row = c.history.base + c.clock[0]
            target.store(to: row + g)
            target.store(to: row + (c.ring &* c.games &+ g))
            return L(gathering: row, at: c.lag.base + g)
        }
    }
}

extension TrackerSteeringColumns.Lanes: TrackerSteerer where L == Float {}
