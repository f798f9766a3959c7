import Gym

/// Where ``BreakoutTracker`` reads the wall it aims its returns at: each
/// column's hits left, summed from the observation's cell entries
/// (``ObservedWall``: every step) or kept per game while the wall stays the
/// same (``KeptWall``, ``BreakoutStateTracker``); both give the same shift
/// bit for bit.
protocol BreakoutTrackerWall {
    /// How far `rules` moves the paddle's centre past `x` (half width
    /// `halfW`) so that the return heads for this wall's aim column
    /// (``BreakoutTracker/aimColumn(from:columnHits:)``).
    func aimShift(_ rules: BreakoutTracker, from x: Float, halfW: Float) -> Float
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
        let column = decided && abs(x) <= Self.nearRange
            ? Self.nearest(candidates, to: x, rules)
            : rules.aimColumn(from: x, columnHits: sums)
        return rules.aimShift(from: x, halfW: halfW, toward: column)
    }

    /// Of the columns in `candidates`, the nearest to `x` (ties: the
    /// leftmost), or −1 without one; `x` within ``nearRange``.
    @inline(__always)
    static func nearest(_ candidates: UInt32, to x: Float, _ rules: BreakoutTracker) -> Int {
        guard candidates != 0 else { return -1 }
        // j: the last column whose centre is at or left of x (−1: none).
        let cols = rules.cols
        let guess = (x / rules.brickWidth - 0.5).rounded(.down)
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
