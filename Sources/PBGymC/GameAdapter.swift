import Gym

/// One game's saved state as the adapter writes it: the game's own snapshot
/// (JSON, ``Snapshot``) plus, for single-agent Pong, what rebuilds the
/// opponent agent (its episode seed and the observations it has acted on).
struct GamePayload {
    var json: [UInt8]
    var opponentSeed: UInt64 = 0
    var history: [Float] = []
}

/// A batch of one game kind behind the one interface ``Session`` drives.
///
/// The adapter's batch is the game's ``VectorEnvironment``, created in the
/// autoreset mode the session asks for (next-step or disabled; the session
/// composes same-step from next-step, see ``Session``); its restart streams
/// are the only seed streams (``VectorEnvironment``, "Seeds"): game `i`
/// reset with stream `r` plays `Seeds.episode(runSeed: r, index: e)` as its
/// episode `e`, as `gym-train eval --seed r` does. Observation bounds come
/// from the batch's ``VectorEnvironment/observationLayout``.
protocol GameAdapter: AnyObject {
    var count: Int { get }
    /// Seats the caller acts for per game (Pong two-player: 2).
    var seats: Int { get }
    var actionCount: Int { get }
    var layout: ObservationLayout { get }
    /// Names of the per-game event counters (``step``'s `events` columns).
    var eventNames: [String] { get }
    /// Names of the two per-game score columns.
    var scoreNames: [String] { get }
    var configJSON: JSONValue { get }
    /// The size `render` uses when the caller gives none.
    var renderSize: PixelObservation { get }

    /// Game `i` starts episode 0 of the restart stream `runSeed`.
    /// - Throws: `agentFault` when a seated agent (the opponent) faults.
    func reset(_ i: Int, stream runSeed: UInt64) throws(ABIError)
    /// Every game `i` with `mask[i] != 0` starts the next episode of its stream.
    /// - Throws: `agentFault` when a seated agent (the opponent) faults.
    func resetNext(mask: UnsafePointer<UInt8>) throws(ABIError)
    /// Game `i`'s restart stream (for snapshots).
    func restartStream(_ i: Int) -> RestartStream
    func setRestartStream(_ stream: RestartStream, _ i: Int)
    /// Whether game `i`'s episode has ended (in next-step mode: it restarts
    /// at the next step).
    func ended(_ i: Int) -> Bool
    /// Every seat's observation of every game (`N × S × n` floats).
    func observe(into out: UnsafeMutablePointer<Float>)
    /// Game `i`'s observations (`S × n` floats).
    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>)
    /// Game `i` as seat `seat` sees it, in pixels: one picture, its memory
    /// bounded by the picture's size (never by the number of games).
    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>)
    /// Makes what ``renderObservation(_:seat:size:into:)`` keeps for the pixel
    /// observations of every game (a pixel buffer is being bound).
    /// - Throws: `outOfMemory` when it cannot be allocated.
    func preparePixels() throws(ABIError)
    /// Game `i`'s pixel observation for seat `seat` at `size` (the
    /// session's pixel size), from what ``preparePixels()`` made.
    func renderObservation(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>)
    /// One step of every game through the batch, in its autoreset mode
    /// (actions `N × S`, all in range): rewards `N × S`, flags and ends `N`,
    /// observations `N × S × n` and events `N × E` when given.
    /// - Throws: `agentFault` when a seated agent (the opponent) faults (the
    ///   games may be part-stepped: reset them).
    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?) throws(ABIError)
    /// ``step(actions:observations:rewards:terminated:truncated:ends:events:)``,
    /// then, when `scores` is given, every game's score columns after it
    /// into `scores` as ``writeScores(into:)`` writes them: an adapter whose
    /// batch writes them within its step implements this; the default
    /// writes them in a pass after the step.
    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?, scores: UnsafeMutablePointer<Int32>?) throws(ABIError)
    /// Every game's two score columns (``scoreNames``) into `out`
    /// (`N × 2`), in one call: read after every step.
    func writeScores(into out: UnsafeMutablePointer<Int32>)
    /// One line above the text rendering (scores, step).
    func statusLine(_ i: Int) -> String
    func payload(_ i: Int) throws(ABIError) -> GamePayload
    func restore(_ payload: GamePayload, into i: Int) throws(ABIError)
}

extension GameAdapter {
    var eventCount: Int { eventNames.count }

    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?, scores: UnsafeMutablePointer<Int32>?) throws(ABIError) {
        try step(actions: actions, observations: observations, rewards: rewards, terminated: terminated,
                 truncated: truncated, ends: ends, events: events)
        if let scores { writeScores(into: scores) }
    }
}
