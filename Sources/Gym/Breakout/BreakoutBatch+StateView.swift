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

    /// The entries before the brick cells of the eight games `i ..< i + 8`
    /// (a whole group: `i` a multiple of 8), entry `e` of game `i + j` in
    /// lane `j` of `o[e]`: what ``observeHead(_:into:)`` writes for each,
    /// bit for bit (the kernels of the batch's observation in lanes), for
    /// the head and the ball slots `0 ..< most`, `most` the most balls any
    /// of the eight has (returned); `o[8 + 5 × most ..< cellStart]` are not
    /// written (each game's entries there are zeros). `o` holds
    /// ``BreakoutPhysics/cellStart`` lane vectors.
    public func observeHeadEight(_ i: Int, into o: UnsafeMutablePointer<SIMD8<Float>>) -> Int {
        precondition(i >= 0 && i & 7 == 0 && i + 8 <= count, "games \(i) ..< \(i + 8) are not a group of the batch")
        if ruleTable.ownCount == 0 { return headEight(i, into: o, SameRules<Lanes>()) }
        return headEight(i, into: o, GameRules(ruleTable).lanes(i))
    }

    /// ``observeHeadEight(_:into:)`` of games whose rule values are `rules`.
    @inline(__always)
    func headEight<K: BreakoutRuleValues>(_ i: Int, into o: UnsafeMutablePointer<Lanes>, _ rules: K) -> Int
        where K.L == Lanes {
        let g = UnsafePointer(columns.group(i)), c = UnsafePointer(cores + i)
        let balls = g.pointee.ballCount, most = Int(balls.max()), n = Lane8.floats(balls)
        physics.headEntries(paddleX: g.pointee.paddleX, halfWidth: g.pointee.halfWidth,
                            lives: Lane8.floats(g.pointee.lives), levels: Lane8.floats(g.pointee.levels),
                            cooldown: Lane8.floats(g.pointee.cooldown),
                            sinceProgress: Lane8.floats(g.pointee.sinceProgress),
                            servePending: Lane8.floats(Lane8.widen(g.pointee.pending)), speed: g.pointee.speed,
                            rules) { o[$0] = $1 }
        for k in 0 ..< most {
            let active = Lanes(repeating: Float(k)) .< n
            let e = k == 0
                ? physics.slotEntries(x: g.pointee.ballX, y: g.pointee.ballY, vx: g.pointee.ballVX, vy: g.pointee.ballVY,
                                      active: active, rules)
                : physics.slotEntries(x: Physics.gather(c) { $0.pointee.ballX[k] }, y: Physics.gather(c) { $0.pointee.ballY[k] },
                                      vx: Physics.gather(c) { $0.pointee.ballVX[k] },
                                      vy: Physics.gather(c) { $0.pointee.ballVY[k] }, active: active, rules)
            let b = o + 8 + 5 * k
            b[0] = e.0; b[1] = e.1; b[2] = e.2; b[3] = e.3; b[4] = e.4
        }
        return most
    }

    /// Writes game `i`'s brick cell entries (``cellCount`` floats, the
    /// observation's from ``BreakoutPhysics/cellStart``) into `out`: what
    /// they are until the game's grid next changes (``wallVersion(_:)``).
    public func writeCellEntries(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        precondition(i >= 0 && i < count, "game index out of range")
        physics.writeCells(grid(i), into: out)
    }

    /// A number that changes whenever game `i`'s brick grid does (a brick
    /// hit, a new wall, a reset, a restore): what a reader of
    /// ``writeCellEntries(_:into:)`` compares to know whether what it derived from
    /// them still holds.
    public func wallVersion(_ i: Int) -> UInt32 {
        precondition(i >= 0 && i < count, "game index out of range")
        return wallVersions[i]
    }

    /// Every game's ``wallVersion(_:)``, game `i`'s at `[i]`, read in place
    /// (valid as long as the batch): for a reader checking many games a step.
    public var wallVersionColumn: UnsafePointer<UInt32> { UnsafePointer(wallVersions) }
}
