import Foundation
import Testing
@testable import Gym

/// The games' invariants (``SnapshotState/checkInvariants(_:)``): every
/// state play reaches keeps them (so no saved game is refused), and a state
/// that breaks one is refused by every restoring path, naming the field.
@Suite struct StateInvariantTests {
    /// Breakout configs whose play reaches every end and every special
    /// brick: the fast-path cases (presets at several frame skips, sticky,
    /// gravity, the extreme config) and short limits, few lives, a layout
    /// and speed-ups by hit counts.
    static func breakoutConfigs() throws -> [(String, BreakoutConfig)] {
        let classic = try BreakoutConfig.preset("classic")
        let short = classic.with { $0.maxSteps = 300; $0.watchdogSteps = 0; $0.lives = 1 }
        let watched = classic.with { $0.watchdogSteps = 150 }
        let oneBrick = classic.with {
            $0.brickRows = 1; $0.brickColumns = 1; $0.rowValues = [1000]; $0.layout = ["#"]; $0.levels = 3
        }
        let laid = classic.with {
            $0.brickRows = 2; $0.brickColumns = 4; $0.rowValues = [1000, 7]; $0.layout = ["T.XB", "S#T."]
            $0.toughHits = 7; $0.speedUpAfterHits = [1, 2, 5]; $0.speedUpRows = 1; $0.shrinkPaddleOnTopWall = true
            $0.levels = 99; $0.maxSteps = 0; $0.watchdogSteps = 0; $0.frameSkip = 3
        }
        let bouncy = classic.with { $0.elasticity = 0.5; $0.maxBalls = 8; $0.ballsPerServe = 8; $0.extraBallFraction = 0.5 }
        let cases = try breakoutFastPathBatches(count: 1, seed: 0).map { ($0.0, $0.1.config) }
        return cases + [("short limits", short), ("watchdog", watched), ("one brick", oneBrick), ("layout", laid),
                        ("bouncy", bouncy)]
    }

    static func pongConfigs() throws -> [(String, PongConfig)] {
        let presets = PongConfig.presets.map { ($0.name, $0.config) }
        let short = try PongConfig.preset("touch").with { $0.maxSteps = 150 }
        let onePoint = try PongConfig.preset("fast").with { $0.maxSteps = 0; $0.maxScore = 1 }
        let wide = PongConfig().atRangeEnds(highest: ["maxBallSpeed", "speedIncrement", "paddleSpeed"],
                                            lowest: ["englishDivisor", "ballSize"])
            .with { $0.paddleWidth = 4 * $0.englishDivisor - $0.ballSize; $0.maxScore = 3 }
        return presets + [("short limits", short), ("one point", onePoint), ("wide english", wide)]
    }

    /// Nine games (one group of eight in lanes, one alone) in next-step
    /// autoreset (ended games are seen before they restart), random actions;
    /// every game's state checked after every step of the first 300, then
    /// every seventh.
    @Test func everyBreakoutStatePlayReachesKeepsTheInvariants() throws {
        var ends = Set<EpisodeEnd>()
        for (name, config) in try Self.breakoutConfigs() {
            let batch = BreakoutBatch(config: config, count: 9, seed: 5, autoresetMode: .nextStep)
            let buffers = VectorBuffers(batch, observedSeats: 0)
            var rng = Xoshiro256(seed: 77)
            for step in 0 ..< 2500 {
                for i in 0 ..< 9 { buffers.actions[i] = Int32(rng.below(4)) }
                buffers.step(batch)
                guard step < 300 || step % 7 == 0 else { continue }
                for i in 0 ..< 9 {
                    let state = batch.state(i)
                    ends.insert(state.core.end)
                    do { try state.checkInvariants(config) } catch {
                        Issue.record("\(name) step \(step) game \(i): \(error)")
                        return
                    }
                }
            }
        }
        #expect(ends == [.none, .livesExhausted, .levelsCleared, .stepLimit, .watchdog], "\(ends)")
    }

    @Test func everyPongStatePlayReachesKeepsTheInvariants() throws {
        var ends = Set<EpisodeEnd>()
        for (name, config) in try Self.pongConfigs() {
            let batch = PongBatch(config: config, count: 9, seed: 5, autoresetMode: .nextStep)
            let buffers = VectorBuffers(batch, observedSeats: 0)
            var rng = Xoshiro256(seed: 78)
            for step in 0 ..< 3000 {
                for k in 0 ..< 18 { buffers.actions[k] = Int32(rng.below(5)) }
                buffers.step(batch)
                guard step < 300 || step % 7 == 0 else { continue }
                for i in 0 ..< 9 {
                    let state = batch.state(i)
                    ends.insert(state.end)
                    do { try state.checkInvariants(config) } catch {
                        Issue.record("\(name) step \(step) game \(i): \(error)")
                        return
                    }
                }
            }
        }
        #expect(ends == [.none, .gameOver, .stepLimit], "\(ends)")
    }

    /// The issue's forged state (counters at their extremes, valid floats)
    /// is refused by decoding, by the single game and by a batch, each
    /// naming the first impossible field; before, a batch accepted it and
    /// the first brick hit trapped.
    @Test func forgedBreakoutCountersAreRefusedEverywhere() throws {
        let batch = BreakoutBatch(config: BreakoutConfig(), count: 9, seed: 1)
        var saved = batch.snapshot(3)
        saved.state.core.score = .max
        saved.state.core.bricksLeft = .min
        saved.state.core.hitsSinceServe = .max
        saved.state.core.speedUpsPassed = -1
        let data = try saved.encoded()
        let expected = SnapshotError.impossible(field: "state.core.bricksLeft", value: "-2147483648",
                                                allowed: "50 (the bricks in state.bricks)")
        #expect(throws: expected) { _ = try BreakoutGame.SavedGame.decode(data) }
        #expect(throws: expected) { _ = try BreakoutGame(restoring: saved) }
        #expect(throws: expected) { try batch.restore(saved, into: 3) }
        #expect(batch.snapshot(3).state != saved.state, "a refused restore changes nothing")
    }

    /// One field at a time just past what the rules allow, from a game in
    /// play: each refused by decoding and by the batch, the error naming that
    /// field (its JSON path) and its value.
    @Test func eachBreakoutFieldPastItsInvariantIsRefusedByName() throws {
        let config = try BreakoutConfig.preset("atari")
        var game = BreakoutGame(config: config, seed: 4)
        for k in 0 ..< 400 { _ = game.step(k % 5 == 0 ? 3 : k % 3 == 0 ? 1 : 2) }
        let base = game.snapshot()
        #expect(throws: Never.self) { try base.state.checkInvariants(config) }
        let wall = Int32(config.rowValues.reduce(0, +) * config.brickColumns)
        let cases: [(String, (inout BreakoutState) -> Void)] = [
            ("state.core.score", { $0.core.score = wall * ($0.core.levelsCleared + 1) + 1 }),
            ("state.core.score", { $0.core.score = -1 }),
            ("state.core.bricksLeft", { $0.core.bricksLeft += 1 }),
            ("state.core.hitsSinceServe", { $0.core.hitsSinceServe = Int32(config.brickRows * config.brickColumns * config.toughHits + 1) }),
            ("state.core.speedUpsPassed", { $0.core.speedUpsPassed = -1 }),
            ("state.core.speedUpsPassed", { $0.core.speedUpsPassed = 3 }),
            ("state.core.lives", { $0.core.lives = Int32(config.lives + 1) }),
            ("state.core.levelsCleared", { $0.core.levelsCleared = -1 }),
            ("state.core.pushCooldown", { $0.core.pushCooldown = Int32(config.pushCooldown + 1) }),
            ("state.core.steps", { $0.core.steps = Int32(config.maxSteps + 1) }),
            ("state.core.frames", { $0.core.frames = $0.core.steps * Int32(config.frameSkip) + 1 }),
            ("state.core.stepsSinceProgress", { $0.core.stepsSinceProgress = -1 }),
            ("state.core.serveTimer", { $0.core.serveTimer = 1; $0.core.servePending = false }),
            ("state.core.speed", { $0.core.speed = config.maxBallSpeed.nextUp }),
            ("state.core.paddleX", { $0.core.paddleX = -1 }),
            ("state.core.paddleHalfWidth", { $0.core.paddleHalfWidth = 1 }),
            ("state.core.ballCount", { $0.core.ballCount = Int32(config.maxBalls + 1) }),
            ("state.core.ballCount", { $0.core.ballCount = -1 }),
            ("state.core.flashHead", { $0.core.flashHead = 8 }),
            ("state.core.flashCell[2]", { $0.core.flashCell[2] = Int16(config.brickRows * config.brickColumns) }),
            ("state.core.end", { $0.core.end = .gameOver }),
            ("state.core.end", { $0.core.end = .livesExhausted }),
            ("state.core.pushRNG", { $0.core.pushRNG = Xoshiro256(words: 0, 0, 0, 0) }),
            ("state.bricks", { $0.bricks.removeLast() }),
            ("state.bricks[0]", { $0.bricks[0] = 0x55 }),
            ("state.bricks[1]", { $0.bricks[1] = BrickCell.make(.normal, hits: 1) | BrickCell.pending }),
        ]
        let batch = BreakoutBatch(config: config, count: 8, seed: 2)
        for (field, change) in cases {
            var forged = base
            change(&forged.state)
            for error in [Self.refusal { _ = try BreakoutGame.SavedGame.decode(forged.encoded()) },
                          Self.refusal { try batch.restore(forged, into: 5) }] {
                guard case let .impossible(named, _, _) = error else {
                    Issue.record("\(field): \(error.map { "\($0)" } ?? "accepted")")
                    continue
                }
                #expect(named == field, "\(error.map { "\($0)" } ?? "")")
            }
        }
    }

    @Test func eachPongFieldPastItsInvariantIsRefusedByName() throws {
        let config = try PongConfig.preset("touch")
        var game = PongGame(config: config, seed: 4)
        for k in 0 ..< 300 { _ = game.step(top: k % 5, bottom: (k / 7) % 5) }
        let base = game.snapshot()
        #expect(throws: Never.self) { try base.state.checkInvariants(config) }
        let cases: [(String, (inout PongState) -> Void)] = [
            ("state.scoreTop", { $0.scoreTop = Int32(config.maxScore + 1) }),
            ("state.scoreBottom", { $0.scoreBottom = -1 }),
            ("state.steps", { $0.steps = Int32(config.maxSteps + 1) }),
            ("state.ballX", { $0.ballX = 1e30 }),
            ("state.ballY", { $0.ballY = -1 }),
            ("state.ballVX", { $0.ballVX = 2 * $0.speed * 1.01 }),
            ("state.ballVY", { $0.ballVY = -config.maxBallSpeed.nextUp }),
            ("state.speed", { $0.speed = config.serveSpeed.nextDown }),
            ("state.bottomX", { $0.bottomX = 0 }),
            ("state.topY", { $0.topY = config.fieldHeight }),
            ("state.end", { $0.end = .gameOver }),
            ("state.end", { $0.end = .watchdog }),
            ("state.serveRNG", { $0.serveRNG = Xoshiro256(words: 0, 0, 0, 0) }),
        ]
        let batch = PongBatch(config: config, count: 8, seed: 2)
        for (field, change) in cases {
            var forged = base
            change(&forged.state)
            for error in [Self.refusal { _ = try PongGame.SavedGame.decode(forged.encoded()) },
                          Self.refusal { _ = try PongGame(restoring: forged) },
                          Self.refusal { try batch.restore(forged, into: 5) }] {
                guard case let .impossible(named, _, _) = error else {
                    Issue.record("\(field): \(error.map { "\($0)" } ?? "accepted")")
                    continue
                }
                #expect(named == field, "\(error.map { "\($0)" } ?? "")")
            }
        }
    }

    /// An episode with no step limit and no watchdog can run for ever: its
    /// event totals wrap past `Int32.max` instead of trapping.
    @Test func breakoutEventTotalsWrap() {
        var total = BreakoutEvents()
        total.paddleHits = .max
        total.pushes = .max
        var one = BreakoutEvents()
        one.paddleHits = 1
        one.pushes = 2
        total.accumulate(one)
        #expect(total.paddleHits == .min && total.pushes == .min + 1)
    }

    /// The error `body` throws (nil if it does not throw).
    static func refusal(_ body: () throws -> Void) -> SnapshotError? {
        do { try body() } catch let e as SnapshotError { return e } catch { return .corrupt("\(error)") }
        return nil
    }
}
