import Foundation
import Gym

/// Breakout behind ``GameAdapter`` (one seat).
final class BreakoutAdapter: GameAdapter {
    let batch: BreakoutBatch
    let config: BreakoutConfig
    let layout: ObservationLayout
    let count: Int
    var events: [BreakoutEvents]

    init(config: BreakoutConfig, count: Int, observationSize: PixelObservation, autoresetMode: AutoresetMode,
         context: RuleContext<BreakoutConfig>? = nil) {
        self.config = config
        self.observationSize = observationSize
        self.count = count
        batch = BreakoutBatch(config: config, count: count, seed: 0, autoresetMode: autoresetMode, context: context)
        layout = batch.observationLayout
        events = Array(repeating: BreakoutEvents(), count: count)
        eventsInPlace = EventRows.matches(BreakoutEvents.self, eventColumns)
    }

    var seats: Int { 1 }
    var actionCount: Int { batch.actionCount }
    let eventNames = ["points", "brick_hits", "broken_normal", "broken_tough", "broken_explosive",
                      "broken_extra_ball", "broken_speed_up", "paddle_hits", "balls_lost", "lives_lost",
                      "levels_cleared", "pushes", "balls_released", "speed_ups"]
    /// ``BreakoutEvents``'s field of each of ``eventNames``, in order.
    let eventColumns: [WritableKeyPath<BreakoutEvents, Int32>] = [
        \.points, \.brickHits, \.brokenNormal, \.brokenTough, \.brokenExplosive, \.brokenExtraBall, \.brokenSpeedUp,
        \.paddleHits, \.ballsLost, \.livesLost, \.levelsCleared, \.pushes, \.ballsReleased, \.speedUps,
    ]
    /// Whether the batch writes the caller's events rows itself
    /// (``EventRows/matches(_:_:)``); else each step copies them from ``events``.
    var eventsInPlace: Bool
    var scoreNames: [String] { ["score", "lives"] }
    var configJSON: JSONValue { config.json }
    var renderSize: PixelObservation {
        PixelObservation(width: max(1, Int(config.fieldWidth / 2)), height: max(1, Int(config.fieldHeight / 2))) ?? .atari
    }

    func reset(_ i: Int, stream runSeed: UInt64) { batch.reset(i, stream: runSeed) }
    func resetNext(mask: UnsafePointer<UInt8>) { batch.reset(mask: mask, seeds: nil) }
    func restartStream(_ i: Int) -> RestartStream { batch.restartStream(i) }
    func setRestartStream(_ stream: RestartStream, _ i: Int) { batch.setRestartStream(stream, i) }
    func ended(_ i: Int) -> Bool { batch.core(i).end != .none }
    func observe(into out: UnsafeMutablePointer<Float>) { batch.observe(into: out) }
    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>) { batch.observe(i, into: out) }

    /// The pixel observations' renderer, keeping each game's wall image
    /// (as many bytes as the observations of every game): made by
    /// ``preparePixels()`` when a pixel buffer is bound.
    var renderer: BreakoutPixelRenderer?
    let observationSize: PixelObservation

    func preparePixels() throws(ABIError) {
        guard renderer == nil else { return }
        guard let made = BreakoutPixelRenderer(config: config, count: count, size: observationSize) else {
            let bytes = BreakoutPixelRenderer.byteCount(config: config, count: count, size: observationSize).map { "\($0)" } ?? "too many"
            throw ABIError(.outOfMemory, "bind: cannot allocate \(bytes) bytes for the pixel observations' wall images (\(count) games at \(observationSize.height)x\(observationSize.width)); use fewer games or a smaller pixel_size")
        }
        renderer = made
    }

    func renderObservation(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        if let renderer, size == observationSize {
            renderer.render(batch, i, into: out)
        } else {
            render(i, seat: seat, size: size, into: out)
        }
    }

    /// One picture of one game (render, ansi): drawn whole, so the call
    /// needs no memory beyond the picture's (and the layout of its bricks).
    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        batch.render(i, layout: BreakoutPixelLayout(config: config, size: size), into: out)
    }

    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events eventOut: UnsafeMutablePointer<Int32>?) {
        step(actions: actions, observations: observations, rewards: rewards, terminated: terminated,
             truncated: truncated, ends: ends, events: eventOut, scores: nil)
    }

    /// The scores are written by the batch within its step
    /// (``BreakoutBatch/step(actions:into:scores:)``).
    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events eventOut: UnsafeMutablePointer<Int32>?, scores: UnsafeMutablePointer<Int32>?) {
        func stepBatch(_ out: VectorStepOutput<BreakoutEvents>) {
            if let scores {
                batch.step(actions: actions, into: out, scores: scores)
            } else {
                batch.step(actions: actions, into: out)
            }
        }
        if let eventOut, eventsInPlace {
            // The rows are BreakoutEvents values (checked at init): the batch writes them.
            let rows = UnsafeMutableRawPointer(eventOut).assumingMemoryBound(to: BreakoutEvents.self)
            stepBatch(VectorStepOutput(observations: observations, rewards: rewards, terminated: terminated,
                                       truncated: truncated, ends: ends, events: rows))
            return
        }
        events.withUnsafeMutableBufferPointer { ev in
            stepBatch(VectorStepOutput(observations: observations, rewards: rewards, terminated: terminated,
                                       truncated: truncated, ends: ends, events: eventOut == nil ? nil : ev.baseAddress))
            guard let e = eventOut, let ev = ev.baseAddress else { return }
            EventRows.copy(ev, count: count, eventColumns, into: e)
        }
    }

    /// Read without settling a lane game's core (``BreakoutBatch/writeScoreAndLives(into:)``).
    func writeScores(into out: UnsafeMutablePointer<Int32>) { batch.writeScoreAndLives(into: out) }

    func statusLine(_ i: Int) -> String {
        let c = batch.core(i)
        return "breakout  score \(c.score)  lives \(c.lives)  bricks \(c.bricksLeft)  step \(c.steps)\(c.end == .none ? "" : "  (\(c.end))")"
    }

    func payload(_ i: Int) throws(ABIError) -> GamePayload {
        do { return GamePayload(json: Array(try batch.snapshot(i).encoded())) } catch {
            throw ABIError(.invalidArgument, "snapshot: cannot encode game \(i): \(error)")
        }
    }

    func restore(_ p: GamePayload, into i: Int) throws(ABIError) {
        let saved: BreakoutGame.SavedGame
        do { saved = try BreakoutGame.SavedGame.decode(Data(p.json)) } catch {
            throw ABIError(.badSnapshot, "snapshot: \(error.description)")
        }
        guard p.history.isEmpty else { throw ABIError(.badSnapshot, "snapshot: a Breakout snapshot holds no opponent history") }
        // Decoding checked the state against Breakout's invariants.
        do { try batch.restore(saved, into: i) } catch { throw ABIError(.badSnapshot, "snapshot: \(error.description)") }
    }
}
