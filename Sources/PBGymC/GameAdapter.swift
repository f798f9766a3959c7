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
/// The adapter's batch never restarts a game by itself (its autoreset mode
/// is `.disabled`): the session owns autoreset modes and seed streams
/// (episode `e` of stream `s` plays `Seeds.episode(runSeed: s, index: e)`,
/// as `gym-train eval` seeds its episodes), so both games and the CLI agree.
/// Observation bounds come from the batch's ``VectorEnvironment/observationLayout``.
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

    /// Starts a new episode of game `i` from episode seed `seed`.
    func start(_ i: Int, seed: UInt64)
    /// Every seat's observation of every game (`N × S × n` floats).
    func observe(into out: UnsafeMutablePointer<Float>)
    /// Game `i`'s observations (`S × n` floats).
    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>)
    /// Game `i` as seat `seat` sees it, in pixels.
    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>)
    /// One step of every game (actions `N × S`, all in range): rewards
    /// `N × S`, flags and ends `N`, observations `N × S × n` and events
    /// `N × E` when given. A finished game repeats its flags.
    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events: UnsafeMutablePointer<Int32>?)
    /// Game `i`'s two score columns.
    func scores(_ i: Int) -> (Int32, Int32)
    /// One line above the text rendering (scores, step).
    func statusLine(_ i: Int) -> String
    func payload(_ i: Int) throws(ABIError) -> GamePayload
    func restore(_ payload: GamePayload, into i: Int) throws(ABIError)
}

extension GameAdapter {
    var eventCount: Int { eventNames.count }
}

/// Checks that every float of a restored state is finite and within
/// `limit` in magnitude (a forged snapshot must not reach the physics with
/// values its integer conversions would trap on).
func checkFinite(_ values: [Float], limit: Float, what: String) throws(ABIError) {
    for v in values where !(v.isFinite && abs(v) <= limit) {
        throw ABIError(.badSnapshot, "snapshot: \(what) holds \(v), outside -\(limit) ... \(limit)")
    }
}
