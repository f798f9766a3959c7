import Gym

/// Where ``BreakoutTracker`` reads the wall it aims its returns at: each
/// column's hits left, summed from the observation's cell entries
/// (``ObservedWall``: every step) or kept per game while the wall stays the
/// same (``KeptWall``, ``BreakoutStateTracker``); both give the same shift
/// bit for bit.
protocol BreakoutTrackerWall: BreakoutTrackerWalls where L == Float {
    /// How far `rules` moves the paddle's centre past `x` (half width
    /// `halfW`) so that the return heads for this wall's aim column
    /// (``BreakoutTracker/aimColumn(from:columnHits:)``).
    func aimShift(_ rules: BreakoutTracker, from x: Float, halfW: Float) -> Float
}

/// Where ``BreakoutTracker/moves(_:balls:asked:wall:_:)`` reads the walls of its
/// games, one game (`L` = `Float`: a ``BreakoutTrackerWall``) or eight:
/// each lane's ``BreakoutTrackerWall/aimShift(_:from:halfW:)`` of its own
/// game's wall, in the lanes asked for (0 in the others).
protocol BreakoutTrackerWalls {
    associatedtype L: LaneFloat
    func aimShifts(_ rules: BreakoutTracker, from x: L, halfW: L, where lanes: L.Condition) -> L
}

extension BreakoutTrackerWall {
    @inline(__always)
    func aimShifts(_ rules: BreakoutTracker, from x: Float, halfW: Float, where lanes: LaneFlag) -> Float {
        lanes.isSet ? aimShift(rules, from: x, halfW: halfW) : 0
    }
}

/// The wall of an observation row: its cell entries, summed every step.
struct ObservedWall: BreakoutTrackerWall {
    let cells: UnsafePointer<Float>

    @inline(__always)
    func aimShift(_ rules: BreakoutTracker, from x: Float, halfW: Float) -> Float {
        rules.aimShift(from: x, halfW: halfW, cells: cells)
    }
}

/// A wall whose column sums (``BreakoutTracker/sumColumns(_:into:)``) were
/// kept from an earlier step, and what they say of the aim column for any x.
///
/// The scan of ``BreakoutTracker/aimColumn(from:columnHits:)`` counts hits
/// within 10⁻⁶ as equal, column by column. Where every column short of the
/// most hits `most` is short by at least 10⁻³ (and `most` is at least that),
/// the scan's steps are exact comparisons: it takes the first column with
/// `most`, then a later one with `most` only when strictly nearer x (its
/// sums are at most 16 rows × 1, so adding 10⁻⁶ moves a sum by far less
/// than 10⁻³). It thus returns the first of the columns with `most` nearest
/// x, and those columns' distances to x fall, then rise, column by column
/// (centres a brick's width apart, far more than a rounding step of a
/// distance within the field's range): the nearest is the last of them
/// with its centre at or left of x or the first right of it, the right one
/// only when strictly nearer. ``candidates`` holds the columns with `most`
/// then; otherwise (or for an x far outside the field, or NaN) the scan runs
/// on the kept sums.
struct KeptWall: BreakoutTrackerWall {
    /// Each column's hits left.
    let sums: UnsafePointer<Float>
    /// The columns with the most hits (bit `c` for column `c`), when they
    /// decide (see the type's doc); 0 with no brick.
    let candidates: UInt32
    /// Whether ``candidates`` decide the aim column.
    let decided: Bool

    /// An x this far from 0 or nearer keeps the distances' order (see the type's doc).
    static let nearRange: Float = 65536

    @inline(__always)
    func aimShift(_ rules: BreakoutTracker, from x: Float, halfW: Float) -> Float {
        rules.aimShift(from: x, halfW: halfW, toward: column(rules, from: x, guess: Self.guess(rules, x)))
    }

    /// The aim column for `x` (−1: none), `guess` being ``guess(_:_:)`` of `x`.
    @inline(__always)
    func column(_ rules: BreakoutTracker, from x: Float, guess: Float) -> Int {
        decided && abs(x) <= Self.nearRange
            ? Self.nearest(candidates, to: x, guess: guess, rules)
            : rules.aimColumn(from: x, columnHits: sums)
    }

    /// Where ``nearest(_:to:guess:_:)`` starts looking for the last column
    /// whose centre is at or left of `x`, for one game or eight: `v = x /
    /// brickWidth − 0.5` rounded down, for `|v|` below 2²² (any other x,
    /// finite, takes the search from a finite start, and the scan when not
    /// within ``nearRange``; NaN gives NaN, as x is not within it). Rounded
    /// by adding and taking away 1.5 × 2²³ (to the nearest integer), then
    /// one down where that rounded up: no floor instruction is needed, which
    /// the baseline x86-64 lacks (a library call per lane).
    @inline(__always)
    static func guess<L: LaneFloat>(_ rules: BreakoutTracker, _ x: L) -> L {
        let v = x / rules.brickWidth - 0.5
        let nearest = (v + 0x1.8p23) - 0x1.8p23
        return nearest.replacing(with: nearest - 1, where: nearest .> v)
    }

    /// Of the columns in `candidates`, the nearest to `x` (ties: the
    /// leftmost), or −1 without one; `x` within ``nearRange``, `guess`
    /// its ``guess(_:_:)``.
    @inline(__always)
    static func nearest(_ candidates: UInt32, to x: Float, guess: Float, _ rules: BreakoutTracker) -> Int {
        guard candidates != 0 else { return -1 }
        // j: the last column whose centre is at or left of x (−1: none).
        let cols = rules.cols
        var j = guess < 0 ? -1 : guess >= Float(cols - 1) ? cols - 1 : Int(guess)
        while j >= 0, rules.centre(j) > x { j -= 1 }
        while j + 1 < cols, rules.centre(j + 1) <= x { j += 1 }
        let low = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(j + 1)) &- 1) & candidates
        let high = candidates & ~low
        guard low != 0 else { return high.trailingZeroBitCount }
        let left = 31 - low.leadingZeroBitCount
        guard high != 0 else { return left }
        let right = high.trailingZeroBitCount
        return abs(rules.centre(right) - x) < abs(rules.centre(left) - x) ? right : left
    }

    /// Walls of up to this many columns take ``nearest(_:to:guess:_:)``
    /// in lanes (``nearest(lanes:to:guess:_:)``).
    static let laneColumns = 24

    /// ``nearest(_:to:guess:_:)`` of eight walls (lane `j`: `candidates[j]`,
    /// `x[j]`, `guess[j]`), the columns as floats, in the lanes where `x`
    /// is within ``nearRange`` (the others: any value), for walls of up to
    /// ``laneColumns`` columns: the search for the last centre at or left
    /// of x steps all lanes at once, and a candidate set then converts to
    /// a float exactly, so the highest set bit of the set below `j + 1`
    /// and the lowest one above (isolated as `v & −v`) are read from the
    /// exponents of those floats.
    @inline(__always)
    static func nearest(lanes candidates: SIMD8<UInt32>, to x: SIMD8<Float>, guess: SIMD8<Float>,
                        _ rules: BreakoutTracker) -> SIMD8<Float> {
        typealias F = SIMD8<Float>
        assert(rules.cols <= laneColumns, "a wall of up to \(laneColumns) columns")
        let last = Float(rules.cols - 1), width = rules.brickWidth
        let near = magnitude(x) .<= nearRange
        var j = guess.replacing(with: -1, where: guess .< 0).replacing(with: last, where: guess .>= last)
        while true {
            let down = near .& (j .>= 0) .& ((j + 0.5) * width .> x)
            guard down.holdsSomewhere else { break }
            j = j.replacing(with: j - 1, where: down)
        }
        while true {
            let up = near .& (j + 1 .<= last) .& ((j + 1 + 0.5) * width .<= x)
            guard up.holdsSomewhere else { break }
            j = j.replacing(with: j + 1, where: up)
        }
        let below = unsafeBitCast(j + 1 + 0x1p23, to: SIMD8<UInt32>.self) & 0x7F_FFFF
        let low = candidates & ((SIMD8<UInt32>(repeating: 1) &<< below) &- 1)
        let high = candidates & ~low
        let lowSet = F(SIMD8<Int32>(truncatingIfNeeded: low))
        let rightBit = F(SIMD8<Int32>(truncatingIfNeeded: high & (0 &- high)))
        let left = F((unsafeBitCast(lowSet, to: SIMD8<Int32>.self) &>> 23) &- 127)
        let right = F((unsafeBitCast(rightBit, to: SIMD8<Int32>.self) &>> 23) &- 127)
        let nearer = magnitude((right + 0.5) * width - x) .< magnitude((left + 0.5) * width - x)
        // The sets compared with a vector of zeros, not with the scalar 0:
        // the scalar form is taken lane by lane.
        let none = SIMD8<UInt32>()
        return left.replacing(with: right, where: nearer)
            .replacing(with: left, where: high .== none)
            .replacing(with: right, where: low .== none)
            .replacing(with: -1, where: candidates .== none)
    }

    /// `|v|` in every lane, for comparisons (a −0 becomes +0).
    @inline(__always)
    static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }

    /// What decides the aim column of a wall whose column sums are
    /// `sums[0 ..< columns]` (see the type's doc): the candidates, and
    /// whether they decide.
    static func candidates(_ sums: UnsafePointer<Float>, columns: Int) -> (candidates: UInt32, decided: Bool) {
        var most: Float = 0
        for c in 0 ..< columns { most = max(most, sums[c]) }
        guard most > 0 else { return (0, true) }
        var set: UInt32 = 0
        var apart = most >= 1e-3
        for c in 0 ..< columns {
            if sums[c] == most { set |= 1 << UInt32(c) } else if !(most - sums[c] >= 1e-3) { apart = false }
        }
        return (apart ? set : 0, apart)
    }
}
