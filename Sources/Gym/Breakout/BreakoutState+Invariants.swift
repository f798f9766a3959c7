/// Breakout's invariants: what every state the rules of ``BreakoutPhysics``
/// reach under a config satisfies, between agent steps (where snapshots are
/// taken). A restored state must satisfy them all; then no counter can
/// overflow and no index can leave its range while it steps on. Each bound
/// is kept by a step from any state within them all (so a game restored
/// from an accepted snapshot is never refused later).
///
/// Where each bound comes from (the rules, see ``BreakoutPhysics``):
/// - bricks: a wall is the layout or one drawn kind per cell (kinds with a
///   share > 0), tough bricks with `toughHits` hits, the others 1; a hit
///   takes one off, at 0 the cell is empty; `bricksLeft` counts the bricks.
/// - balls: packed in slots `0 ..< ballCount` (the rest zero), at most
///   `maxBalls`, none while a serve is pending, at least one while the game
///   runs without one; between the side walls and below the top wall (the
///   contacts stop it there), above the bottom edge (below, it is lost); no
///   faster than `maxBallSpeed` (every change of velocity ends in the cap;
///   1/1024 of slack for its rounding).
/// - paddle: half width `paddleWidth / 2`, or half that while shrunk (only
///   with `shrinkPaddleOnTopWall`); its centre keeps it inside the field.
/// - counters: `score` at most the points of the walls cleared plus those of
///   the bricks broken in this one (so below 99 walls × 512 bricks × 1000
///   points, far from `Int32.max`); lives, walls cleared, push cooldown,
///   serve timer within their config values; `hitsSinceServe` at most the
///   hits the wall held at the serve less those left in it (a serve comes
///   with every new wall) and `speedUpsPassed` exactly the thresholds it
///   reached;
///   `steps` and `stepsSinceProgress` at most their limits, `frames`
///   between `steps` and `steps × frameSkip`. With a limit of 0 (off) a
///   count grows without bound and wraps (`&+`), so any value is allowed.
/// - the end: one of Breakout's, and only with the counts that cause it.
/// - generators: never all zero (xoshiro's one state that does not move).
extension BreakoutState: SnapshotState {
    public typealias Config = BreakoutConfig

    public static func initial(_ config: BreakoutConfig) -> BreakoutState {
        BreakoutPhysics(config: config).initialState(seed: 0)
    }

    public func checkInvariants(_ config: BreakoutConfig) throws(SnapshotError) {
        let p = BreakoutPhysics(config: config)
        try checkBricks(p)
        try core.checkInvariants(p, bricks: bricks)
    }

    /// The grid: its size, and each cell one the walls of this config hold.
    func checkBricks(_ p: BreakoutPhysics) throws(SnapshotError) {
        try require(bricks.count == p.cells, "state.bricks", "\(bricks.count) cells",
                    allowed: "brickRows × brickColumns = \(p.cells) cells")
        let shares: [Float] = [1 - p.share4, p.share1, p.share2 - p.share1, p.share3 - p.share2, p.share4 - p.share3]
        for (k, cell) in bricks.enumerated() where cell != 0 {
            let raw = cell >> 4 & 0x07, hits = Int(cell & BrickCell.hitsMask)
            let field = "state.bricks[\(k)]"
            if !p.template.isEmpty {
                let laid = p.template[k]
                try require(laid != 0 && cell & ~BrickCell.hitsMask == laid & ~BrickCell.hitsMask && hits >= 1
                                && hits <= BrickCell.hits(laid), field, cell,
                            allowed: laid == 0 ? "0 (the layout has no brick here)"
                                : "0 or the layout's \(BrickCell.kind(laid)) brick with 1 ... \(BrickCell.hits(laid)) hits left (\(laid & ~BrickCell.hitsMask | 1) ... \(laid))")
            } else {
                let kinds = BrickKind.allCases.filter { shares[Int($0.rawValue)] > 0 }
                let kind = BrickKind(rawValue: raw)
                let most = kind == .tough ? p.toughHits : 1
                try require(cell & 0x88 == 0 && kind.map(kinds.contains) == true && hits >= 1 && hits <= most,
                            field, cell,
                            allowed: "0 (no brick) or kind << 4 | hits left for a kind a wall of this config draws (\(kinds.map { "\($0) \($0.rawValue)" }.joined(separator: ", "))) with 1 hit left (tough: 1 ... \(p.toughHits))")
            }
        }
    }
}

extension BreakoutCore {
    /// The core's invariants (see ``BreakoutState``'s) given the grid `bricks`
    /// (already checked to fit the config).
    func checkInvariants(_ p: BreakoutPhysics, bricks: [UInt8]) throws(SnapshotError) {
        let c = p.config
        func f(_ name: String) -> String { "state.core.\(name)" }
        // Balls.
        try require(ballCount >= 0 && Int(ballCount) <= c.maxBalls, f("ballCount"), ballCount,
                    allowed: "0 ... maxBalls (\(c.maxBalls))")
        if servePending {
            try require(ballCount == 0, f("ballCount"), ballCount, allowed: "0 while servePending is true")
        } else if end == .none {
            try require(ballCount >= 1, f("ballCount"), ballCount,
                        allowed: "1 ... maxBalls (\(c.maxBalls)) while the game runs and servePending is false")
        }
        let slack: Float = 1 + 1.0 / 1024, edge: Float = 1.0 / 64
        let fastest = c.maxBallSpeed * slack
        for k in 0 ..< BreakoutConfig.ballSlots {
            let x = ballX[k], y = ballY[k], vx = ballVX[k], vy = ballVY[k]
            if k < Int(ballCount) {
                // A wall contact puts the ball on the wall's plane exactly; the
                // slack only keeps a rounding in a reachable state from being refused.
                try require(x >= p.r - edge && x <= p.width - p.r + edge, f("ballX[\(k)]"), x,
                            allowed: "\(p.r) ... \(p.width - p.r) ± 1/64 (between the side walls; slot \(k) holds a ball, ballCount \(ballCount))")
                try require(y >= 0 && y <= p.height - p.r + edge, f("ballY[\(k)]"), y,
                            allowed: "0 ... \(p.height - p.r) + 1/64 (above the bottom edge, below the top wall; slot \(k) holds a ball, ballCount \(ballCount))")
                try require(vx.isFinite && vy.isFinite && vx * vx + vy * vy <= fastest * fastest,
                            f("ballVX[\(k)], ballVY[\(k)]"), "(\(vx), \(vy))",
                            allowed: "a velocity of speed at most maxBallSpeed (\(c.maxBallSpeed)) × (1 + 1/1024)")
            } else {
                for (name, v) in [("ballX", x), ("ballY", y), ("ballVX", vx), ("ballVY", vy)] {
                    try require(v == 0, f("\(name)[\(k)]"), v, allowed: "0 (slot \(k) is at or beyond ballCount \(ballCount))")
                }
            }
        }
        // Paddle.
        try require(paddleShrunk == false || c.shrinkPaddleOnTopWall, f("paddleShrunk"), paddleShrunk,
                    allowed: "false (shrinkPaddleOnTopWall is off)")
        let half = paddleShrunk ? p.paddleHalfW / 2 : p.paddleHalfW
        try require(paddleHalfWidth == half, f("paddleHalfWidth"), paddleHalfWidth,
                    allowed: "\(half) (paddleWidth / \(paddleShrunk ? 4 : 2), paddleShrunk \(paddleShrunk))")
        try require(paddleX >= half && paddleX <= p.width - half, f("paddleX"), paddleX,
                    allowed: "\(half) ... \(p.width - half) (the paddle inside the field)")
        // The wall and the counters.
        let left = Int32(bricks.reduce(0) { $0 + ($1 == 0 ? 0 : 1) })
        try require(bricksLeft == left, f("bricksLeft"), bricksLeft, allowed: "\(left) (the bricks in state.bricks)")
        try require(lives >= 0 && Int(lives) <= c.lives, f("lives"), lives, allowed: "0 ... lives (\(c.lives))")
        try require(levelsCleared >= 0 && Int(levelsCleared) <= c.levels, f("levelsCleared"), levelsCleared,
                    allowed: "0 ... levels (\(c.levels))")
        // The points of the walls cleared and of the bricks broken in this one.
        var standing: Int64 = 0, hitsLeft = 0
        for (k, cell) in bricks.enumerated() where cell != 0 {
            standing += Int64(p.rowValues[k / p.cols])
            hitsLeft += BrickCell.hits(cell)
        }
        let wall = Int64(p.wallPoints)
        let most = wall * Int64(levelsCleared + 1) - standing
        try require(score >= 0 && Int64(score) <= most, f("score"), score,
                    allowed: "0 ... \(most) (levelsCleared \(levelsCleared) walls of \(wall) points, plus those of the bricks broken in this wall)")
        // Each hit since the serve took one of the hits the wall held then
        // (while a serve is pending the wall may be new: the count is kept).
        let wallHits = p.template.isEmpty ? p.cells * (p.share1 > 0 ? p.toughHits : 1)
            : p.template.reduce(0) { $0 + BrickCell.hits($1) }
        let hitsAllowed = servePending ? wallHits : wallHits - hitsLeft
        try require(hitsSinceServe >= 0 && Int(hitsSinceServe) <= hitsAllowed, f("hitsSinceServe"), hitsSinceServe,
                    allowed: "0 ... \(hitsAllowed) (the hits a wall holds, \(wallHits)\(servePending ? "" : ", less the \(hitsLeft) left in it"))")
        let reached = Int32(c.speedUpAfterHits.prefix(BreakoutConfig.maxSpeedUpThresholds).filter { $0 <= Int(hitsSinceServe) }.count)
        try require(speedUpsPassed == reached, f("speedUpsPassed"), speedUpsPassed,
                    allowed: "\(reached) (the speedUpAfterHits thresholds at or below hitsSinceServe \(hitsSinceServe))")
        try require(reachedTopRows == false || c.speedUpRows > 0, f("reachedTopRows"), reachedTopRows,
                    allowed: "false (speedUpRows is 0)")
        try require(speed >= c.ballSpeed && speed <= c.maxBallSpeed, f("speed"), speed,
                    allowed: "ballSpeed ... maxBallSpeed (\(c.ballSpeed) ... \(c.maxBallSpeed))")
        try require(pushCooldown >= 0 && Int(pushCooldown) <= c.pushCooldown, f("pushCooldown"), pushCooldown,
                    allowed: "0 ... pushCooldown (\(c.pushCooldown))")
        try require(serveTimer >= 0 && Int(serveTimer) <= (servePending ? c.serveDelay : 0), f("serveTimer"), serveTimer,
                    allowed: servePending ? "0 ... serveDelay (\(c.serveDelay)) while a serve is pending" : "0 (no serve is pending)")
        // Steps: bounded by their limits, wrapping counts when a limit is off.
        if c.maxSteps > 0 {
            try require(steps >= 0 && Int(steps) <= c.maxSteps, f("steps"), steps, allowed: "0 ... maxSteps (\(c.maxSteps))")
            let most = Int64(steps) * Int64(c.frameSkip)
            try require(frames >= steps && Int64(frames) <= most, f("frames"), frames,
                        allowed: "steps ... steps × frameSkip (\(steps) ... \(most))")
            try require(stepsSinceProgress >= 0 && stepsSinceProgress <= steps, f("stepsSinceProgress"), stepsSinceProgress,
                        allowed: "0 ... steps (\(steps))")
        }
        if c.watchdogSteps > 0 {
            try require(stepsSinceProgress >= 0 && Int(stepsSinceProgress) <= c.watchdogSteps, f("stepsSinceProgress"),
                        stepsSinceProgress, allowed: "0 ... watchdogSteps (\(c.watchdogSteps))")
        }
        try require(flashHead <= 7, f("flashHead"), flashHead, allowed: "0 ... 7")
        for k in 0 ..< 8 {
            try require(flashCell[k] >= -1 && Int(flashCell[k]) < p.cells, f("flashCell[\(k)]"), flashCell[k],
                        allowed: "-1 (none) or a cell 0 ..< \(p.cells)")
        }
        try checkEnd(c, bricksLeft: left)
        for (name, g) in [("serveRNG", serveRNG), ("pushRNG", pushRNG), ("stickyRNG", stickyRNG), ("wallRNG", wallRNG)] {
            try require(g.s0 | g.s1 | g.s2 | g.s3 != 0, f(name), "all zero", allowed: "any state but all zero")
        }
    }

    /// The end and the counts that cause it: a running game has lives,
    /// bricks, walls and steps left; each end only with its cause.
    func checkEnd(_ c: BreakoutConfig, bricksLeft left: Int32) throws(SnapshotError) {
        let field = "state.core.end"
        switch end {
        case .none:
            try require(lives >= 1, field, "\(end) with lives \(lives)", allowed: "an end (livesExhausted) when lives is 0")
            try require(Int(levelsCleared) < c.levels && left > 0, field,
                        "\(end) with levelsCleared \(levelsCleared), bricksLeft \(left)",
                        allowed: "levelsCleared when every wall (levels \(c.levels)) is cleared")
            try require(c.maxSteps == 0 || Int(steps) < c.maxSteps, field, "\(end) with steps \(steps)",
                        allowed: "stepLimit at maxSteps (\(c.maxSteps))")
            try require(c.watchdogSteps == 0 || Int(stepsSinceProgress) < c.watchdogSteps, field,
                        "\(end) with stepsSinceProgress \(stepsSinceProgress)",
                        allowed: "watchdog at watchdogSteps (\(c.watchdogSteps))")
        case .livesExhausted:
            try require(lives == 0, field, "\(end) with lives \(lives)", allowed: "livesExhausted only with lives 0")
        case .levelsCleared:
            try require(Int(levelsCleared) == c.levels && left == 0 && lives >= 1, field,
                        "\(end) with levelsCleared \(levelsCleared), bricksLeft \(left), lives \(lives)",
                        allowed: "levelsCleared only with levelsCleared = levels (\(c.levels)), no brick left and lives left")
        case .stepLimit:
            try require(c.maxSteps > 0 && Int(steps) == c.maxSteps && lives >= 1, field,
                        "\(end) with steps \(steps), lives \(lives)",
                        allowed: "stepLimit only with steps = maxSteps (\(c.maxSteps), 0 = never) and lives left")
        case .watchdog:
            try require(c.watchdogSteps > 0 && Int(stepsSinceProgress) == c.watchdogSteps && lives >= 1, field,
                        "\(end) with stepsSinceProgress \(stepsSinceProgress), lives \(lives)",
                        allowed: "watchdog only with stepsSinceProgress = watchdogSteps (\(c.watchdogSteps), 0 = off) and lives left")
        case .gameOver:
            try require(false, field, end, allowed: "none, livesExhausted, levelsCleared, stepLimit or watchdog (Breakout's ends)")
        }
    }
}

extension BreakoutPhysics {
    /// The points one wall is worth: every brick broken once (the layout's
    /// bricks, or every cell of a drawn wall), each its row's value.
    var wallPoints: Int32 {
        var total: Int32 = 0
        for k in 0 ..< cells where template.isEmpty || template[k] != 0 { total += rowValues[k / cols] }
        return total
    }
}
