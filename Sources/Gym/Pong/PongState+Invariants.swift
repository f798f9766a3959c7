/// Pong's invariants: what every state the rules of ``PongPhysics`` reach
/// under a config satisfies, between agent steps (where snapshots are
/// taken). A restored state must satisfy them all; then the observation
/// stays within its bounds and no counter overflows while it steps on.
/// Each bound is kept by a step from any state within them all (so a game
/// restored from an accepted snapshot is never refused later).
///
/// Where each bound comes from (the rules, see ``PongPhysics``):
/// - paddles: each in its lane (`ballSize + 1` from the side walls, its
///   own half with `verticalMovement`, else on its home line), 1/64 unit of
///   slack for the rounding of a paddle stopped part-way through a frame;
/// - ball: between the side walls (contacts stop it there) and inside the field
///   vertically (a ball past an edge is a point and a new serve); speed level
///   between `serveSpeed` and `maxBallSpeed`, `|vy|` at most `maxBallSpeed`,
///   `|vx|` at most twice the speed level (english is at most 2; 1/1024 of
///   slack for rounding);
/// - scores at most `maxScore` (the game ends there), `steps` at most
///   `maxSteps` (with 0, no limit: the count wraps, any value is allowed);
/// - the end: one of Pong's, and only with the counts that cause it;
/// - generators: never all zero (xoshiro's one state that does not move).
extension PongState: SnapshotState {
    public typealias Config = PongConfig

    public static func initial(_ config: PongConfig) -> PongState {
        PongPhysics(config: config).initialState(seed: 0)
    }

    public func checkInvariants(_ c: PongConfig) throws(SnapshotError) {
        let p = PongPhysics(config: c)
        func f(_ name: String) -> String { "state.\(name)" }
        let slack: Float = 1.0 / 64
        for (name, x) in [("bottomX", bottomX), ("topX", topX)] {
            try require(x >= p.minPaddleX - slack && x <= p.maxPaddleX + slack, f(name), x,
                        allowed: "\(p.minPaddleX) ... \(p.maxPaddleX) (the paddle's lane) ± 1/64")
        }
        let bottomLow = p.homeY, bottomHigh = p.homeY + p.maxDepth
        let topLow = p.height - p.homeY - p.maxDepth, topHigh = p.height - p.homeY
        try require(bottomY >= bottomLow - slack && bottomY <= bottomHigh + slack, f("bottomY"), bottomY,
                    allowed: "\(bottomLow) ... \(bottomHigh) (the bottom paddle's half) ± 1/64")
        try require(topY >= topLow - slack && topY <= topHigh + slack, f("topY"), topY,
                    allowed: "\(topLow) ... \(topHigh) (the top paddle's half) ± 1/64")
        // A wall contact puts the ball on the wall's plane exactly; the slack
        // only keeps a rounding in a reachable state from being refused.
        try require(ballX >= p.r - slack && ballX <= p.width - p.r + slack, f("ballX"), ballX,
                    allowed: "\(p.r) ... \(p.width - p.r) ± 1/64 (between the side walls)")
        try require(ballY >= 0 && ballY <= p.height, f("ballY"), ballY, allowed: "0 ... fieldHeight (\(p.height))")
        try require(speed >= c.serveSpeed && speed <= c.maxBallSpeed, f("speed"), speed,
                    allowed: "serveSpeed ... maxBallSpeed (\(c.serveSpeed) ... \(c.maxBallSpeed))")
        try require(abs(ballVY) <= c.maxBallSpeed, f("ballVY"), ballVY,
                    allowed: "-maxBallSpeed ... maxBallSpeed (\(c.maxBallSpeed))")
        let fastest = 2 * speed * (1 + 1.0 / 1024)
        try require(abs(ballVX) <= fastest, f("ballVX"), ballVX,
                    allowed: "-\(fastest) ... \(fastest) (2 × speed \(speed), + 1/1024)")
        let most = Int32(c.maxScore)
        for (name, v) in [("scoreBottom", scoreBottom), ("scoreTop", scoreTop)] {
            try require(v >= 0 && v <= most, f(name), v, allowed: "0 ... maxScore (\(most))")
        }
        if c.maxSteps > 0 {
            try require(steps >= 0 && Int(steps) <= c.maxSteps, f("steps"), steps, allowed: "0 ... maxSteps (\(c.maxSteps))")
        }
        let won = scoreBottom == most || scoreTop == most
        let field = f("end")
        switch end {
        case .none:
            try require(!won, field, "\(end) with scoreBottom \(scoreBottom), scoreTop \(scoreTop)",
                        allowed: "gameOver once a side has maxScore (\(most))")
            try require(c.maxSteps == 0 || Int(steps) < c.maxSteps, field, "\(end) with steps \(steps)",
                        allowed: "stepLimit at maxSteps (\(c.maxSteps))")
        case .gameOver:
            try require(won && scoreBottom != scoreTop, field, "\(end) with scoreBottom \(scoreBottom), scoreTop \(scoreTop)",
                        allowed: "gameOver only when one side has maxScore (\(most))")
        case .stepLimit:
            try require(!won && c.maxSteps > 0 && Int(steps) == c.maxSteps, field,
                        "\(end) with steps \(steps), scoreBottom \(scoreBottom), scoreTop \(scoreTop)",
                        allowed: "stepLimit only with steps = maxSteps (\(c.maxSteps), 0 = never) and no side at maxScore")
        case .livesExhausted, .levelsCleared, .watchdog:
            try require(false, field, end, allowed: "none, gameOver or stepLimit (Pong's ends)")
        }
        for (name, g) in [("serveRNG", serveRNG), ("stickyRNG", stickyRNG)] {
            try require(g.s0 | g.s1 | g.s2 | g.s3 != 0, f(name), "all zero", allowed: "any state but all zero")
        }
    }
}
