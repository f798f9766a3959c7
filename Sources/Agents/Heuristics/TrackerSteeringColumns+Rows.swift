import Gym

extension TrackerSteeringColumns {
    /// The steering of eight games anywhere in the columns (lane `j` game
    /// `games[j]`, eight different games): each entry gathered from the
    /// columns into lanes through `scratch` (eight floats) and scattered back,
    /// so that the rule (``TrackerSteeringState``) runs in eight lanes for
    /// rows of any games, with exactly the per-game moves. It lives within a
    /// call on the columns, so it holds them without counting a reference.
    struct Gathered: TrackerSteeringState {
        typealias L = SIMD8<Float>
        unowned(unsafe) let c: TrackerSteeringColumns
        let games: UnsafePointer<Int>
        let scratch: UnsafeMutablePointer<Float>

        @inline(__always)
        init(_ c: TrackerSteeringColumns, games: UnsafePointer<Int>, scratch: UnsafeMutablePointer<Float>) {
            precondition(!c.sharedClock, "gathered games step when asked, each with its own ring")
            for j in 0 ..< 8 {
                precondition(games[j] >= 0 && games[j] < c.games, "game \(games[j]) is not one of the agent's \(c.games) games")
            }
            self.c = c; self.games = games; self.scratch = scratch
        }

        var reaction: L { gather(c.reaction) }
        var noise: L { gather(c.noise) }
        var speed: L { gather(c.speed) }
        var incoming: L { get { gather(c.incoming) } nonmutating set { scatter(newValue, c.incoming) } }
        var aimOffset: L { get { gather(c.aimOffset) } nonmutating set { scatter(newValue, c.aimOffset) } }
        var moveCredit: L { get { gather(c.moveCredit) } nonmutating set { scatter(newValue, c.moveCredit) } }
        var seen: L { get { gather(c.seen) } nonmutating set { scatter(newValue, c.seen) } }

        /// These games' entries of column `values`.
        @inline(__always)
        func gather(_ values: UnsafeMutablePointer<Float>) -> L {
            for j in 0 ..< 8 { scratch[j] = values[games[j]] }
            return L(loading: scratch)
        }

        /// Writes lane `j` of `v` to game `games[j]`'s entry of column `values`.
        @inline(__always)
        func scatter(_ v: L, _ values: UnsafeMutablePointer<Float>) {
            v.store(to: scratch)
            for j in 0 ..< 8 { values[games[j]] = scratch[j] }
        }

        @inline(__always)
        func nextSigned(lane j: Int) -> Float { c.generators[games[j]].nextSigned() }

        @inline(__always)
        func delay(_ target: L) -> L {
            let ring = c.ring, mask = c.mask
            target.store(to: scratch)
            for j in 0 ..< 8 {
                let g = games[j]
                scratch[j] = TrackerSteering.delay(scratch[j], ring: c.history + g &* ring, head: &c.head[g],
                                                   reaction: c.delay[g], mask: mask)
            }
            return L(loading: scratch)
        }
    }
}
