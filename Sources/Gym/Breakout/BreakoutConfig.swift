/// The rules and geometry of a Breakout game: the parameters a designer
/// tunes. All lengths are field units, speeds units per frame, accelerations
/// units per frame²; one frame is 1/60 s. Field: x to the right, y up, the
/// paddle near the bottom edge (which is open), walls left, right and top.
///
/// Every value is range-checked (``fields``) and the relations between them
/// are checked by ``checkRelations(source:)``, so no accepted config makes
/// the game degenerate (the ball can always reach the wall, fits behind it,
/// and the paddle fits the field).
///
/// The defaults are the `classic` preset: the assignment's game, a 5 × 10
/// wall with a few special bricks, gravity off, one wall per episode.
public struct BreakoutConfig: GameConfig, Hashable, Codable {
    public static let gameName = "breakout"

    // MARK: Field and wall
    public var fieldWidth: Float = 320
    public var fieldHeight: Float = 480
    public var brickRows: Int = 5
    public var brickColumns: Int = 10
    /// Height of one brick row; brick width is `fieldWidth / brickColumns`.
    public var brickHeight: Float = 16
    /// Empty space between the top wall and the top brick row (the ball can
    /// get behind the wall there, as in Atari Breakout).
    public var wallTopGap: Float = 48
    /// Points per brick, one entry per row, listed from the bottom row up.
    public var rowValues: [Int] = [1, 1, 2, 2, 3]
    /// An explicit wall, rows of characters drawn top row first (see
    /// ``BrickKind/layoutCharacter``: `.` empty, `#` normal, `T` tough,
    /// `X` explosive, `B` extra ball, `S` speed-up). Empty: every wall is
    /// drawn from the fractions below with the wall generator.
    public var layout: [String] = []
    /// Share of bricks of each special kind in a drawn wall (each cell draws
    /// its kind independently); the rest are normal.
    public var toughFraction: Float = 0.1
    public var explosiveFraction: Float = 0.04
    public var extraBallFraction: Float = 0.04
    public var speedUpFraction: Float = 0.04
    /// Hits a tough brick takes.
    public var toughHits: Int = 2

    // MARK: Game flow
    public var lives: Int = 3
    /// Walls to clear; clearing the last one ends the episode (terminated).
    public var levels: Int = 1
    /// Balls launched by each serve.
    public var ballsPerServe: Int = 1
    /// Most balls in play at once (extra-ball bricks add up to this many);
    /// also the number of ball slots in the observation.
    public var maxBalls: Int = 3
    /// Serve after `serveDelay` frames by itself (true), or when the agent
    /// uses the push action (false, like the Atari FIRE button).
    public var autoServe: Bool = true
    public var serveDelay: Int = 30

    // MARK: Ball and paddle physics
    /// Downward acceleration of every ball (units/frame²).
    public var gravity: Float = 0
    /// Bounciness: factor on the normal velocity at wall and brick bounces
    /// (the paddle always returns the ball at the speed level).
    public var elasticity: Float = 1
    public var paddleWidth: Float = 48
    public var paddleHeight: Float = 8
    /// Height of the paddle's centre line above the bottom edge.
    public var paddleInset: Float = 32
    /// Paddle movement per frame for a left/right action.
    public var paddleSpeed: Float = 6
    /// Side of the square ball.
    public var ballSize: Float = 6
    /// The speed level at each serve (units/frame).
    public var ballSpeed: Float = 4
    /// Speed level added by each speed-up (hit counts, top rows, speed-up bricks).
    public var speedUpIncrement: Float = 0.5
    /// Brick hits since the serve after which the speed level rises (ascending).
    public var speedUpAfterHits: [Int] = []
    /// The ball speeds up the first time (per serve) it hits a brick in the
    /// top `speedUpRows` rows (0 = never).
    public var speedUpRows: Int = 0
    /// Cap on the speed level and on any ball's speed (units/frame).
    public var maxBallSpeed: Float = 10
    /// Smallest angle between the ball's path and the horizontal after a
    /// paddle hit (at the paddle's ends), and after any bounce when gravity is off.
    public var minBounceAngle: Float = 20
    /// The paddle shrinks to half its width when a ball first reaches the top
    /// wall, until the next serve (Atari rule).
    public var shrinkPaddleOnTopWall: Bool = false

    // MARK: Push action
    /// Speed added to every ball in play by a push, in one random direction.
    public var pushImpulse: Float = 2
    /// Frames after a push before the next one works.
    public var pushCooldown: Int = 180

    // MARK: Episode and agent interface
    public var maxSteps: Int = 30_000
    /// Truncation when no brick has been hit for this many agent steps (0 = off).
    public var watchdogSteps: Int = 3600
    /// Whether a paddle contact also counts as progress for the watchdog.
    /// Off by default: a ball looping between the paddle and the walls
    /// without reaching a brick (what push is for) is then caught.
    public var watchdogPaddleResets: Bool = false
    public var frameSkip: Int = 1
    public var stickyActionProbability: Float = 0

    public init() {}

    /// Most rows and columns a wall may have.
    public static let maxRows = 16, maxColumns = 32
    /// Most ball slots (``maxBalls`` can be at most this).
    public static let ballSlots = 8
    /// Most entries in ``speedUpAfterHits``.
    public static let maxSpeedUpThresholds = 8

    public static let fields: [ConfigField<BreakoutConfig>] = [
        .float("fieldWidth", \.fieldWidth, 160 ... 640, "field width (units)"),
        .float("fieldHeight", \.fieldHeight, 200 ... 960, "field height (units)"),
        .int("brickRows", \.brickRows, 1 ... maxRows, "rows of bricks"),
        .int("brickColumns", \.brickColumns, 1 ... maxColumns, "columns of bricks (brick width = fieldWidth / brickColumns)"),
        .float("brickHeight", \.brickHeight, 4 ... 40, "height of a brick row (units)"),
        .float("wallTopGap", \.wallTopGap, 0 ... 200, "space between the top wall and the top brick row (units); 0 or at least 2 × ballSize"),
        intList("rowValues", \.rowValues, element: 0 ... 1000, count: 1 ... maxRows,
                "points per brick, one per row, listed from the bottom row up (exactly brickRows entries)"),
        .custom("layout", allowed: "[] or brickRows strings of brickColumns characters from . # T X B S",
                "explicit wall, top row first: . empty, # normal, T tough, X explosive, B extra ball, S speed-up ([] = draw from the fractions)",
                read: { .array($0.layout.map { .string($0) }) },
                write: { (config: inout BreakoutConfig, value: JSONValue, source: String) throws(ConfigError) in
                    guard case let .array(items) = value else {
                        throw .wrongType(source: source, key: "layout", expected: "an array of strings", found: value.kindName)
                    }
                    var rows: [String] = []
                    for item in items {
                        guard case let .string(s) = item else {
                            throw .wrongType(source: source, key: "layout", expected: "an array of strings", found: "an element that is \(item.kindName)")
                        }
                        rows.append(s)
                    }
                    guard rows.count <= maxRows else {
                        throw .outOfRange(source: source, key: "layout", value: "\(rows.count) rows", allowed: "at most \(maxRows) rows")
                    }
                    config.layout = rows
                }),
        .float("toughFraction", \.toughFraction, 0 ... 1, "share of tough bricks in a drawn wall"),
        .float("explosiveFraction", \.explosiveFraction, 0 ... 1, "share of explosive bricks in a drawn wall"),
        .float("extraBallFraction", \.extraBallFraction, 0 ... 1, "share of extra-ball bricks in a drawn wall"),
        .float("speedUpFraction", \.speedUpFraction, 0 ... 1, "share of speed-up bricks in a drawn wall (the four shares sum to at most 1)"),
        .int("toughHits", \.toughHits, 2 ... 7, "hits a tough brick takes"),
        .int("lives", \.lives, 1 ... 9, "balls (turns) per episode"),
        .int("levels", \.levels, 1 ... 99, "walls to clear; clearing the last ends the episode"),
        .int("ballsPerServe", \.ballsPerServe, 1 ... ballSlots, "balls launched by each serve"),
        .int("maxBalls", \.maxBalls, 1 ... ballSlots, "most balls in play at once (ball slots in the observation)"),
        .bool("autoServe", \.autoServe, "serve after serveDelay frames (true) or when the agent pushes (false, like Atari's FIRE)"),
        .int("serveDelay", \.serveDelay, 0 ... 600, "frames before an automatic serve"),
        .float("gravity", \.gravity, 0 ... 0.25, "downward acceleration of the balls (units/frame²)"),
        .float("elasticity", \.elasticity, 0.5 ... 1.25, "factor on the normal velocity at wall and brick bounces"),
        .float("paddleWidth", \.paddleWidth, 8 ... 256, "paddle width (units); at most fieldWidth / 2"),
        .float("paddleHeight", \.paddleHeight, 2 ... 24, "paddle thickness (units)"),
        .float("paddleInset", \.paddleInset, 8 ... 120, "height of the paddle's centre line above the bottom edge (units)"),
        .float("paddleSpeed", \.paddleSpeed, 1 ... 24, "paddle speed (units/frame)"),
        .float("ballSize", \.ballSize, 2 ... 16, "side of the square ball (units); below the brick height and width"),
        .float("ballSpeed", \.ballSpeed, 1 ... 16, "ball speed level at each serve (units/frame)"),
        .float("speedUpIncrement", \.speedUpIncrement, 0 ... 4, "speed level added by each speed-up (units/frame)"),
        intList("speedUpAfterHits", \.speedUpAfterHits, element: 1 ... 10_000, count: 0 ... maxSpeedUpThresholds,
                "brick hits since the serve after which the ball speeds up (ascending, at most 8)"),
        .int("speedUpRows", \.speedUpRows, 0 ... maxRows, "the ball speeds up on its first hit (per serve) in the top this-many rows (0 = never)"),
        .float("maxBallSpeed", \.maxBallSpeed, 1 ... 24, "cap on the speed level and on any ball's speed (units/frame)"),
        .float("minBounceAngle", \.minBounceAngle, 10 ... 60, "smallest angle from the horizontal after a paddle hit, and after any bounce when gravity is 0 (degrees)"),
        .bool("shrinkPaddleOnTopWall", \.shrinkPaddleOnTopWall, "the paddle halves when a ball first reaches the top wall, until the next serve"),
        .float("pushImpulse", \.pushImpulse, 0 ... 8, "speed added to every ball by the push action, in one seeded random direction (units/frame)"),
        .int("pushCooldown", \.pushCooldown, 0 ... 3600, "frames after a push before the next push works"),
        .int("maxSteps", \.maxSteps, 0 ... 10_000_000, "agent steps before the episode is truncated (0 = never)"),
        .int("watchdogSteps", \.watchdogSteps, 0 ... 1_000_000, "agent steps without any brick hit before the episode is truncated (0 = off)"),
        .bool("watchdogPaddleResets", \.watchdogPaddleResets, "a paddle contact also resets the watchdog (no brick broken *and* no paddle contact); off: only brick hits count as progress"),
        .int("frameSkip", \.frameSkip, 1 ... 16, "frames per agent step (action repeat; rewards summed)"),
        .float("stickyActionProbability", \.stickyActionProbability, 0 ... 1, "chance a frame repeats the previous action (ALE sticky actions)"),
    ]

    /// A list-of-integers field.
    static func intList(_ key: String, _ path: WritableKeyPath<BreakoutConfig, [Int]> & Sendable,
                        element: ClosedRange<Int>, count: ClosedRange<Int>, _ doc: String) -> ConfigField<BreakoutConfig> {
        let allowed = "a list of \(count.lowerBound) ... \(count.upperBound) integers in \(element.lowerBound) ... \(element.upperBound)"
        return .custom(key, allowed: allowed, doc,
                       read: { .array($0[keyPath: path].map { .number($0) }) },
                       write: { (config: inout BreakoutConfig, value: JSONValue, source: String) throws(ConfigError) in
                           guard case let .array(items) = value else {
                               throw .wrongType(source: source, key: key, expected: "a list of integers", found: value.kindName)
                           }
                           guard count.contains(items.count) else {
                               throw .outOfRange(source: source, key: key, value: "\(items.count) entries", allowed: allowed)
                           }
                           var list: [Int] = []
                           for item in items {
                               guard case let .number(x, text) = item, x == x.rounded(), let i = Int(exactly: x) else {
                                   throw .wrongType(source: source, key: key, expected: "a list of integers", found: "an element that is \(item.kindName)")
                               }
                               guard element.contains(i) else {
                                   throw .outOfRange(source: source, key: key, value: text, allowed: allowed)
                               }
                               list.append(i)
                           }
                           config[keyPath: path] = list
                       })
    }

    public static let presets: [(name: String, config: BreakoutConfig)] = {
        let classic = BreakoutConfig()
        var atari = BreakoutConfig()
        atari.fieldWidth = 320
        atari.fieldHeight = 420
        atari.brickRows = 6
        atari.brickColumns = 18
        atari.brickHeight = 12
        atari.wallTopGap = 48
        atari.rowValues = [1, 1, 4, 4, 7, 7]
        atari.toughFraction = 0
        atari.explosiveFraction = 0
        atari.extraBallFraction = 0
        atari.speedUpFraction = 0
        atari.lives = 5
        atari.levels = 2
        atari.maxBalls = 1
        atari.autoServe = false
        atari.paddleWidth = 32
        atari.paddleInset = 24
        atari.ballSize = 4
        atari.ballSpeed = 3
        atari.speedUpIncrement = 1
        atari.speedUpAfterHits = [4, 12]
        atari.speedUpRows = 2
        atari.maxBallSpeed = 8
        atari.shrinkPaddleOnTopWall = true
        atari.pushImpulse = 0
        atari.maxSteps = 50_000
        // The Arcade Learning Environment's v5 conventions on the atari game:
        // 4 frames per agent step, sticky actions 0.25, and its episode cap
        // of 108 000 frames, which is 27 000 agent steps at frame skip 4.
        var ale = atari
        ale.frameSkip = 4
        ale.stickyActionProbability = 0.25
        ale.maxSteps = 108_000 / ale.frameSkip
        return [("classic", classic), ("atari", atari), ("ale", ale)]
    }()

    /// Width of one brick (units).
    public var brickWidth: Float { fieldWidth / Float(brickColumns) }
    /// Height of the wall's lowest edge above the bottom (units).
    public var wallBottom: Float { fieldHeight - wallTopGap - Float(brickRows) * brickHeight }

    public func checkRelations(source: String) throws(ConfigError) {
        if rowValues.count != brickRows {
            throw .invalid(source: source, key: "rowValues",
                           message: "has \(rowValues.count) entries; it needs one per brick row (brickRows = \(brickRows))")
        }
        try checkLayout(source: source)
        let shares = toughFraction + explosiveFraction + extraBallFraction + speedUpFraction
        if shares > 1 {
            throw .invalid(source: source, key: "speedUpFraction",
                           message: "makes the special-brick shares sum to \(shares); toughFraction + explosiveFraction + extraBallFraction + speedUpFraction must be at most 1")
        }
        if ballsPerServe > maxBalls {
            throw .invalid(source: source, key: "ballsPerServe", message: "= \(ballsPerServe) exceeds maxBalls (\(maxBalls))")
        }
        if maxBallSpeed < ballSpeed {
            throw .invalid(source: source, key: "maxBallSpeed",
                           message: "= \(fmt(maxBallSpeed)) must be at least ballSpeed (\(fmt(ballSpeed)))")
        }
        for k in speedUpAfterHits.indices.dropFirst() where speedUpAfterHits[k] <= speedUpAfterHits[k - 1] {
            throw .invalid(source: source, key: "speedUpAfterHits",
                           message: "must be strictly ascending; \(speedUpAfterHits[k]) follows \(speedUpAfterHits[k - 1])")
        }
        if speedUpRows > brickRows {
            throw .invalid(source: source, key: "speedUpRows", message: "= \(speedUpRows) exceeds brickRows (\(brickRows))")
        }
        if ballSize >= brickHeight || ballSize >= brickWidth {
            throw .invalid(source: source, key: "ballSize",
                           message: "= \(fmt(ballSize)) must be below the brick height (\(fmt(brickHeight))) and width (\(brickWidth)) so a released ball fits a brick's cell")
        }
        if wallTopGap > 0, wallTopGap < 2 * ballSize {
            throw .invalid(source: source, key: "wallTopGap",
                           message: "= \(fmt(wallTopGap)) is too narrow for the ball; use 0 or at least 2 × ballSize (\(fmt(2 * ballSize)))")
        }
        if paddleWidth > fieldWidth / 2 {
            throw .invalid(source: source, key: "paddleWidth",
                           message: "= \(fmt(paddleWidth)) must be at most fieldWidth / 2 (\(fmt(fieldWidth / 2)))")
        }
        // Room to play: a quarter of the field between the paddle and the wall.
        let paddleTop = paddleInset + paddleHeight / 2
        let room = wallBottom - paddleTop
        if room < fieldHeight / 4 {
            throw .invalid(source: source, key: "brickRows",
                           message: "with brickHeight \(fmt(brickHeight)), wallTopGap \(fmt(wallTopGap)) and paddleInset \(fmt(paddleInset)) leaves \(room) units between paddle and wall; at least fieldHeight / 4 (\(fmt(fieldHeight / 4))) is needed")
        }
        // A served ball must be able to reach the wall against gravity.
        if gravity > 0, ballSpeed * ballSpeed / (2 * gravity) < room {
            throw .invalid(source: source, key: "gravity",
                           message: "= \(fmt(gravity)) is too strong: a ball served at ballSpeed \(fmt(ballSpeed)) rises at most \(ballSpeed * ballSpeed / (2 * gravity)) units, below the wall (\(room) units above the paddle)")
        }
    }

    func checkLayout(source: String) throws(ConfigError) {
        guard !layout.isEmpty else { return }
        if layout.count != brickRows {
            throw .invalid(source: source, key: "layout",
                           message: "has \(layout.count) rows; it needs brickRows = \(brickRows) rows (or [] to draw walls from the fractions)")
        }
        let allowed = BrickCell.layoutCharacters.map(String.init).joined(separator: " ")
        var bricks = 0
        for (k, row) in layout.enumerated() {
            let chars = Array(row)
            for (col, c) in chars.enumerated() where c != "." {
                guard BrickKind(layoutCharacter: c) != nil else {
                    throw .invalid(source: source, key: "layout",
                                   message: "row \(k + 1) (\"\(row)\") has the unknown character \"\(c)\" at column \(col + 1); allowed: \(allowed)")
                }
                bricks += 1
            }
            if chars.count != brickColumns {
                throw .invalid(source: source, key: "layout",
                               message: "row \(k + 1) (\"\(row)\") has \(chars.count) characters; every row needs brickColumns = \(brickColumns)")
            }
        }
        if bricks == 0 {
            throw .invalid(source: source, key: "layout", message: "has no bricks; draw at least one (or use [] to draw walls from the fractions)")
        }
    }
}
