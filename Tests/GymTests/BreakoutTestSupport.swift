@testable import Gym

/// A Breakout game set up by hand for rule tests: place balls, draw walls,
/// step, and total the events.
struct BreakoutLab {
    var game: BreakoutGame
    var events = BreakoutEvents()
    var rewards: Float = 0
    var results: [StepResult] = []

    init(_ config: BreakoutConfig, seed: UInt64 = 1) {
        game = BreakoutGame(config: config, seed: seed)
    }

    var core: BreakoutCore {
        get { game.state.core }
        set { game.state.core = newValue }
    }
    var config: BreakoutConfig { game.config }

    /// Puts a ball in slot `k` (cancelling a pending serve).
    mutating func ball(_ k: Int = 0, x: Float, y: Float, vx: Float, vy: Float) {
        game.state.core.servePending = false
        game.state.core.ballX[k] = x; game.state.core.ballY[k] = y
        game.state.core.ballVX[k] = vx; game.state.core.ballVY[k] = vy
        game.state.core.ballCount = max(game.state.core.ballCount, Int32(k + 1))
    }

    /// Steps `n` times with `action`, totalling events and rewards; stops at the end.
    @discardableResult
    mutating func run(_ n: Int, action: Int = 0) -> StepResult? {
        var last: StepResult?
        for _ in 0 ..< n {
            var e = BreakoutEvents()
            let r = game.step(action, events: &e)
            events.accumulate(e)
            rewards += r.reward
            results.append(r)
            last = r
            if r.isDone { break }
        }
        return last
    }

    /// Hits left in the brick at (row from the bottom, column).
    func hits(row: Int, col: Int) -> Int {
        BrickCell.hits(game.state.bricks[row * config.brickColumns + col])
    }

    /// Centre of the brick cell at (row from the bottom, column).
    func brickCentre(row: Int, col: Int) -> (x: Float, y: Float) {
        (config.brickWidth * (Float(col) + 0.5), config.wallBottom + config.brickHeight * (Float(row) + 0.5))
    }
}

/// A layout (top row first) with `cells` placed by (row from the bottom,
/// column) and the rest empty.
func breakoutLayout(rows: Int, cols: Int, _ cells: [(row: Int, col: Int, c: Character)]) -> [String] {
    var grid = [[Character]](repeating: [Character](repeating: ".", count: cols), count: rows)
    for (row, col, c) in cells { grid[rows - 1 - row][col] = c }
    return grid.map { String($0) }
}

/// The classic config, changed by `change`, with an explicit layout of `cells`.
func labConfig(_ cells: [(row: Int, col: Int, c: Character)], _ change: (inout BreakoutConfig) -> Void = { _ in }) -> BreakoutConfig {
    var c = BreakoutConfig()
    change(&c)
    c.layout = breakoutLayout(rows: c.brickRows, cols: c.brickColumns, cells)
    return c
}

/// A config at the edges of every range that matters for collisions: top
/// speed, strongest gravity, bounciest walls, thin bricks, many balls; and
/// every special brick kind, several balls per serve and a narrow paddle,
/// with no step limit or watchdog.
let breakoutExtreme: BreakoutConfig = BreakoutConfig()
    .atRangeEnds(highest: ["brickRows", "brickColumns", "ballSpeed", "maxBallSpeed", "gravity", "elasticity", "maxBalls",
                           "toughHits", "paddleSpeed", "pushImpulse", "lives", "levels"],
                 lowest: ["brickHeight", "ballSize", "pushCooldown", "serveDelay", "watchdogSteps", "maxSteps", "minBounceAngle"])
    .with {
        $0.rowValues = Array(1 ... $0.brickRows)
        $0.ballsPerServe = 4
        ($0.toughFraction, $0.explosiveFraction, $0.extraBallFraction, $0.speedUpFraction) = (0.2, 0.1, 0.2, 0.1)
        $0.paddleWidth = 16
    }

/// The fast-path tests' cases: every preset at 1, 4 and 8 frames per step
/// without sticky actions and at 4 with sticky 0.25, the extreme config,
/// and `classic` with gravity and a manual serve; each a new batch of
/// `count` games from batch seed `seed`.
func breakoutFastPathBatches(count: Int, seed: UInt64) throws -> [(String, BreakoutBatch)] {
    try breakoutFastPathCases().map { ($0, BreakoutBatch(config: $1, count: count, seed: seed)) }
}

private func breakoutFastPathCases() throws -> [(String, BreakoutConfig)] {
    var gravity = try BreakoutConfig.preset("classic")
    (gravity.gravity, gravity.elasticity, gravity.autoServe) = (0.05, 0.9, false)
    let settings: [(skip: Int, sticky: Float)] = [(1, 0), (4, 0), (8, 0), (4, 0.25)]
    return try [("extreme", breakoutExtreme), ("gravity", gravity)] + BreakoutConfig.presetNames.flatMap { name in
        try settings.map { setting in
            var c = try BreakoutConfig.preset(name)
            c.frameSkip = setting.skip
            c.stickyActionProbability = setting.sticky
            return ("\(name) skip \(setting.skip) sticky \(setting.sticky)", c)
        }
    }
}

/// A random wall for the nearest-column tests: 1 to 32 columns (one draw
/// of `rng`) on a field 320, 160, 640 or 97 wide (by `trial`).
struct AimWall {
    let config: BreakoutConfig
    let physics: BreakoutPhysics

    init(trial: Int, rng: inout Xoshiro256) {
        var config = BreakoutConfig()
        config.brickColumns = 1 + Int(rng.below(32))
        config.fieldWidth = [320, 160, 640, 97][trial % 4]
        self.config = config
        physics = BreakoutPhysics(config: config)
    }

    var columns: Int { config.brickColumns }

    /// Every column a candidate.
    var all: UInt32 { columns == 32 ? .max : (1 << UInt32(columns)) - 1 }

    /// A ball position of kind `kind % 4`: a brick's centre, a brick's
    /// edge, across and beyond the field, anywhere on it.
    func position(_ kind: Int, rng: inout Xoshiro256) -> Float {
        let w = config.brickWidth
        return switch kind % 4 {
        case 0: (Float(rng.below(columns)) + 0.5) * w
        case 1: Float(rng.below(columns + 1)) * w
        case 2: (rng.nextUnit() * 1.4 - 0.2) * config.fieldWidth
        default: rng.nextUnit() * config.fieldWidth
        }
    }
}

/// Every preset, then classic with gravity 0.05: the configs the quiet-frame
/// checks walk (a falling ball bends its path, so a quiet frame must too).
func breakoutPresetsAndGravity() throws -> [(String, BreakoutConfig)] {
    var gravity = try BreakoutConfig.preset("classic")
    gravity.gravity = 0.05
    return BreakoutConfig.presets.map { ($0.name, $0.config) } + [("gravity", gravity)]
}
