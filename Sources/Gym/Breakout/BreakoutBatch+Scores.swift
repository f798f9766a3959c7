extension BreakoutBatch {
    /// Every game's score and lives, read from their columns (``Columns``,
    /// each game's one copy of them) without building a whole state
    /// (``core(_:)``), into `out` (`2 × count` values: game `i`'s score at
    /// `2i`, its lives at `2i + 1`): one pass, for a caller reading every
    /// score after every step (the C ABI session; ``step(actions:into:scores:)``
    /// writes them within its step instead).
    public func writeScoreAndLives(into out: UnsafeMutablePointer<Int32>) {
        writeScoreAndLives(0, count, into: out)
    }

    /// The score and lives of the games `first ..< first + n` into their
    /// entries of `out` (as ``writeScoreAndLives(into:)`` lays them out).
    @inline(__always)
    func writeScoreAndLives(_ first: Int, _ n: Int, into out: UnsafeMutablePointer<Int32>) {
        var i = first
        while i < first &+ n {
            let g = columns.group(i), j = i & 7
            out[2 &* i] = g.pointee.score[j]
            out[2 &* i &+ 1] = g.pointee.lives[j]
            i &+= 1
        }
    }

    /// One agent step of every game (``step(actions:into:)``), each game's
    /// score and lives after it written into `scores` as
    /// ``writeScoreAndLives(into:)`` writes them, group by group as each
    /// group's games finish their step (while their columns are in cache),
    /// instead of in a pass of their own after the step (nil: none written).
    @inline(__always)
    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<BreakoutEvents>,
                     scores: UnsafeMutablePointer<Int32>?) {
        if ruleTable.perGame {
            stepUnderOwnRules(actions, out, scores: scores)
        } else {
            stepGroups(actions, out, UniformRules(), scores: scores)
        }
    }
}
