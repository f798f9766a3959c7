/// What of ``BreakoutBatch``'s observation an agent that acts on the
/// batch's state instead of observation rows reads (the built-in tracker):
/// the same floats, bit for bit, as the rows ``BreakoutBatch/step(actions:into:)``
/// and ``BreakoutBatch/observe(into:)`` write, without writing a row.
extension BreakoutBatch {
    /// Writes game `i`'s observation entries before its brick cells (the
    /// head and every ball slot: ``BreakoutPhysics/cellStart`` floats) into `o`,
    /// as ``BreakoutPhysics/observeHead(_:into:)`` writes them from the
    /// game's whole core, but read in place: the fields from the columns,
    /// the balls past slot 0 from the core, and a slot not in play written
    /// as the zeros its entries are without computing them.
    public func observeHead(_ i: Int, into o: UnsafeMutablePointer<Float>) {
        precondition(i >= 0 && i < count, "game index out of range")
        let g = UnsafePointer(columns.group(i)), j = i & 7, core = UnsafePointer(cores + i), p = physics(i)
        let balls = Int(g.pointee.ballCount[j]), n = Float(g.pointee.ballCount[j])
        p.headEntries(paddleX: g.pointee.paddleX[j], halfWidth: g.pointee.halfWidth[j],
                      lives: Float(g.pointee.lives[j]), levels: Float(g.pointee.levels[j]),
                      cooldown: Float(g.pointee.cooldown[j]), sinceProgress: Float(g.pointee.sinceProgress[j]),
                      servePending: g.pointee.pending[j] != 0 ? 1 : 0, speed: g.pointee.speed[j],
                      SameRules()) { o[$0] = $1 }
        for k in 0 ..< Int(p.maxBalls) {
            let b = o + 8 + 5 * k
            guard k < balls else { b.initialize(repeating: 0, count: 5); continue }
            let e = k == 0
                ? p.slotEntries(x: g.pointee.ballX[j], y: g.pointee.ballY[j], vx: g.pointee.ballVX[j],
                                vy: g.pointee.ballVY[j], active: Float(k) .< n, SameRules())
                : p.slotEntries(x: core.pointee.ballX[k], y: core.pointee.ballY[k], vx: core.pointee.ballVX[k],
                                vy: core.pointee.ballVY[k], active: Float(k) .< n, SameRules())
            b[0] = e.0; b[1] = e.1; b[2] = e.2; b[3] = e.3; b[4] = e.4
        }
    }

    /// Game `i`'s brick cell entries (``cellCount`` floats, the observation's
    /// from ``BreakoutPhysics/cellStart``), kept by the batch: valid until
    /// the game's grid next changes (``wallVersion(_:)``).
    public func cellEntries(_ i: Int) -> UnsafePointer<Float> {
        precondition(i >= 0 && i < count, "game index out of range")
        return UnsafePointer(cellRows + i * observationCount + physics.cellStart)
    }

    /// A number that changes whenever game `i`'s brick grid does (a brick
    /// hit, a new wall, a reset, a restore): what a reader of
    /// ``cellEntries(_:)`` compares to know whether what it derived from
    /// them still holds.
    public func wallVersion(_ i: Int) -> UInt32 {
        precondition(i >= 0 && i < count, "game index out of range")
        return wallVersions[i]
    }
}
