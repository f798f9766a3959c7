import Gym

/// What an environment is created from: a JSON object (the create text).
///
///     {"game": "pong", "config": {"preset": "classic", "maxScore": 5},
///      "num_games": 8, "obs_type": "features", "pixel_size": [84, 84],
///      "autoreset": "next-step", "seed": 0, "players": 1,
///      "opponent": "tracker", "agent_side": "bottom", "opponent_history": true,
///      "frame_stack": 4, "channels_order": "last",
///      "variants": "train", "variants_visible": true, "variants_text": "{...}",
///      "action_dtype": "int32", "reward_dtype": "float32"}
///
/// Only `game` is required. Unknown keys, wrong types and out-of-range
/// values are refused with a message naming the key, the value and what
/// is allowed.
struct EnvConfig {
    enum Game: String { case pong, breakout }
    enum ObsType: String { case features, pixels }
    /// The element type of the bound action buffer: `int64` (the default)
    /// is checked as Int64 (no value wraps into range) and narrowed into
    /// the session's scratch each step; `int32`, the game's own type, is
    /// checked and read in place (``Session/step(observations:bytes:)``).
    enum ActionDType: String { case int64, int32 }
    /// The element type of the bound reward buffer: `float64` (the default)
    /// is the game's Float widened each step; `float32`, the game's own
    /// type, is written by the step in place. Widening is exact, so both
    /// hold the same values.
    enum RewardDType: String { case float64, float32 }

    var game: Game
    /// The game config document (`preset` plus overrides), decoded by the game.
    var gameConfig: JSONValue = .object([])
    var numGames = 1
    var obsType = ObsType.features
    var pixelSize = PixelObservation.atari
    var autoreset = AutoresetMode.nextStep
    /// Game `i`'s first run seed is `seed + i` (wrapping).
    var seed: UInt64 = 0
    /// Pong: 1 (the caller plays one side against ``opponent``) or 2.
    var players = 1
    var opponent = "tracker"
    var agentSideTop = false
    /// Keep each game's opponent observations of the running episode, so a
    /// snapshot can rebuild the opponent's state (default: one game only).
    var opponentHistory: Bool?
    /// Pixel observations: frames per observation (1 ... ``maxFrameStack``;
    /// more than 1 needs `obs_type` pixels, see ``FrameStack``).
    var frameStack = 1
    /// Pixel observations: where the channel (stack) axis goes.
    var channelsOrder = FrameStack.Order.last
    /// Per-episode rules: the variant set each episode's rules are drawn
    /// from (nil: the config's rules throughout; see ``ContextAdapter``).
    var variants: String?
    /// Whether the rule context is appended to the features.
    var variantsVisible = false
    /// A variant file's text (nil: the game's shipped file).
    var variantsText: String?
    var actionDType = ActionDType.int64
    var rewardDType = RewardDType.float64

    static let maxGames = 1 << 20
    static let maxFrameStack = 16
    static let keys = ["game", "config", "num_games", "obs_type", "pixel_size", "autoreset", "seed",
                       "players", "opponent", "agent_side", "opponent_history", "frame_stack", "channels_order",
                       "variants", "variants_visible", "variants_text", "action_dtype", "reward_dtype"]

    static func parse(_ text: String) throws(ABIError) -> EnvConfig {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw ABIError(.badConfig, "config: \(error.description)") }
        guard case let .object(members) = doc else {
            throw ABIError(.badConfig, "config: expected a JSON object, found \(doc.kindName)")
        }
        for (key, _) in members where !keys.contains(key) {
            throw ABIError(.badConfig, "config: unknown key \"\(key)\"; allowed: \(keys.joined(separator: ", "))")
        }
        guard let g = doc["game"] else { throw ABIError(.badConfig, "config: missing key \"game\" (pong or breakout)") }
        guard case let .string(gs) = g, let game = Game(rawValue: gs) else {
            throw bad("game", g, "\"pong\" or \"breakout\"")
        }
        var c = EnvConfig(game: game)
        if let v = doc["config"] {
            guard case .object = v else { throw bad("config", v, "an object (preset and config keys)") }
            c.gameConfig = v
        }
        if let v = doc["num_games"] { c.numGames = try int(v, "num_games", 1 ... maxGames) }
        if let v = doc["obs_type"] {
            guard case let .string(s) = v, let t = ObsType(rawValue: s) else { throw bad("obs_type", v, "\"features\" or \"pixels\"") }
            c.obsType = t
        }
        if let v = doc["pixel_size"] {
            guard case let .array(a) = v, a.count == 2 else { throw bad("pixel_size", v, "[height, width]") }
            let h = try int(a[0], "pixel_size[0] (height)", 1 ... PixelObservation.maxSide)
            let w = try int(a[1], "pixel_size[1] (width)", 1 ... PixelObservation.maxSide)
            guard let size = PixelObservation(width: w, height: h) else { throw bad("pixel_size", v, "[height, width]") }
            c.pixelSize = size
        }
        if let v = doc["autoreset"] {
            guard case let .string(s) = v, let m = AutoresetMode.allCases.first(where: { $0.description == s }) else {
                throw bad("autoreset", v, AutoresetMode.allCases.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            c.autoreset = m
        }
        if let v = doc["seed"] {
            guard case let .number(_, text) = v, let s = UInt64(text) else { throw bad("seed", v, "an integer in 0 ... 2^64-1") }
            c.seed = s
        }
        if let v = doc["players"] {
            c.players = try int(v, "players", 1 ... (game == .pong ? 2 : 1))
        }
        if let v = doc["opponent"] {
            guard game == .pong else { throw ABIError(.badConfig, "config: \"opponent\" is for Pong only") }
            guard case let .string(s) = v else { throw bad("opponent", v, "an agent spec, e.g. \"tracker\" or \"random\"") }
            c.opponent = s
        }
        if let v = doc["agent_side"] {
            guard game == .pong else { throw ABIError(.badConfig, "config: \"agent_side\" is for Pong only") }
            guard case let .string(s) = v, s == "bottom" || s == "top" else { throw bad("agent_side", v, "\"bottom\" or \"top\"") }
            c.agentSideTop = s == "top"
        }
        if let v = doc["opponent_history"] {
            guard case let .bool(b) = v else { throw bad("opponent_history", v, "true or false") }
            c.opponentHistory = b
        }
        if let v = doc["frame_stack"] {
            c.frameStack = try int(v, "frame_stack", 1 ... maxFrameStack)
            guard c.frameStack == 1 || c.obsType == .pixels else {
                throw ABIError(.badConfig, "config: frame_stack=\(c.frameStack) needs obs_type \"pixels\" (features are not stacked); allowed with features: 1")
            }
        }
        if let v = doc["channels_order"] {
            guard case let .string(s) = v, let o = FrameStack.Order(rawValue: s) else {
                throw bad("channels_order", v, "\"last\" (height, width, channels) or \"first\" (channels, height, width)")
            }
            c.channelsOrder = o
        }
        if let v = doc["variants"] {
            guard case let .string(s) = v, !s.isEmpty else { throw bad("variants", v, "a variant set's name (train, near, far)") }
            c.variants = s
        }
        if let v = doc["variants_visible"] {
            guard case let .bool(b) = v else { throw bad("variants_visible", v, "true or false") }
            guard c.variants != nil else { throw ABIError(.badConfig, "config: variants_visible needs variants (a variant set's name)") }
            c.variantsVisible = b
        }
        if let v = doc["variants_text"] {
            guard case let .string(s) = v else { throw bad("variants_text", v, "a variant file's JSON text") }
            guard c.variants != nil else { throw ABIError(.badConfig, "config: variants_text needs variants (a variant set's name)") }
            c.variantsText = s
        }
        if let v = doc["action_dtype"] {
            guard case let .string(s) = v, let t = ActionDType(rawValue: s) else {
                throw bad("action_dtype", v, "\"int64\" (the default) or \"int32\"")
            }
            c.actionDType = t
        }
        if let v = doc["reward_dtype"] {
            guard case let .string(s) = v, let t = RewardDType(rawValue: s) else {
                throw bad("reward_dtype", v, "\"float64\" (the default) or \"float32\"")
            }
            c.rewardDType = t
        }
        return c
    }

    static func bad(_ key: String, _ v: JSONValue, _ allowed: String) -> ABIError {
        ABIError(.badConfig, "config: \(key)=\(v.serialized(pretty: false)) is invalid; allowed: \(allowed)")
    }

    static func int(_ v: JSONValue, _ key: String, _ range: ClosedRange<Int>) throws(ABIError) -> Int {
        guard case let .number(_, text) = v, let i = Int(text), range.contains(i) else {
            throw bad(key, v, "an integer in \(range.lowerBound) ... \(range.upperBound)")
        }
        return i
    }
}
