import Foundation
import Gym

/// A saved linear policy: a versioned JSON document holding the weights,
/// the normalisation statistics, what the policy is for (game, observation
/// layout version, shape), the game config it was trained on (and its
/// hash), the variant set it was trained across if any (``PolicyContext``)
/// and, for a training checkpoint, the trainer's state.
///
/// ```json
/// { "format": "linear-policy", "formatVersion": 1,
///   "game": "pong", "layoutVersion": 1, "inputs": 12, "outputs": 3,
///   "gameConfigHash": "9c0e…", "gameConfig": { … },
///   "variants": { … } (only when trained across a variant set),
///   "weights": [ … 36 floats, row-major … ], "bias": [0.1, 0, -0.1],
///   "normalizer": null | { "count": …, "mean": […], "m2": […] },
///   "training": null | { "trainer": "es", "iteration": 40, … } }
/// ```
///
/// Floats are written in their shortest round-trip form and read back with
/// `Float(String)`, so a round trip is bit-exact. Files are written whole
/// (temp file, then rename) by the caller's atomic writer, so a crash never
/// leaves a truncated checkpoint.
public struct Checkpoint: Equatable, Sendable {
    /// The format this build writes and reads.
    public static let formatVersion = 1
    /// The value of the document's `format` key.
    public static let formatName = "linear-policy"

    public var target: PolicyTarget
    /// Hash of the effective game config (``GameConfig/configHash``).
    public var gameConfigHash: UInt64
    /// The effective game config, as written by ``GameConfig/json``.
    public var gameConfig: JSONValue
    public var policy: LinearPolicy
    /// The variant set the policy was trained across (nil: one config's rules).
    public var variants: PolicyContext?
    /// The trainer's state (nil for a policy saved only to be played).
    public var training: TrainerState?

    public init(target: PolicyTarget, gameConfigHash: UInt64, gameConfig: JSONValue,
                policy: LinearPolicy, variants: PolicyContext? = nil, training: TrainerState? = nil) {
        precondition(policy.inputs == target.inputs && policy.outputs == target.outputs, "policy shape does not match its target")
        self.target = target
        self.gameConfigHash = gameConfigHash
        self.gameConfig = gameConfig
        self.policy = policy
        self.variants = variants
        self.training = training
    }

    /// A checkpoint of a Pong policy.
    public init(pong config: PongConfig, policy: LinearPolicy, training: TrainerState? = nil) {
        self.init(target: .pong(config), gameConfigHash: config.configHash, gameConfig: config.json,
                  policy: policy, training: training)
    }

    // MARK: - Checks

    /// Refuses a checkpoint made for another game, observation layout or
    /// shape. `expected` is the game's own target; a policy that sees its
    /// context (``PolicyContext/visible``) reads the context features too.
    /// - Parameter path: named in the error.
    public func check(for game: PolicyTarget, path: String) throws(CheckpointError) {
        var expected = game
        expected.inputs += variants?.featureCount ?? 0
        if target.game != expected.game {
            throw .wrongGame(path: path, found: target.game, expected: expected.game)
        }
        if target.layoutVersion != expected.layoutVersion {
            throw .wrongLayout(path: path, game: target.game, found: target.layoutVersion, expected: expected.layoutVersion)
        }
        if target.inputs != expected.inputs || target.outputs != expected.outputs {
            throw .wrongShape(path: path, found: target, expected: expected)
        }
    }

    // MARK: - Encoding

    /// The document as JSON text.
    /// - Throws: ``CheckpointError/nonFinite(_:)`` if a weight or statistic
    ///   is NaN or infinite (a diverged run is not saved as if it were fine).
    public func encoded() throws(CheckpointError) -> String {
        func floats(_ xs: [Float], _ name: String) throws(CheckpointError) -> JSONValue {
            guard xs.allSatisfy(\.isFinite) else { throw .nonFinite(name) }
            return .array(xs.map { .number($0) })
        }
        func doubles(_ xs: [Double], _ name: String) throws(CheckpointError) -> JSONValue {
            guard xs.allSatisfy(\.isFinite) else { throw .nonFinite(name) }
            return .array(xs.map { .number($0) })
        }
        var members: [(String, JSONValue)] = [
            ("format", .string(Self.formatName)),
            ("formatVersion", .number(Self.formatVersion)),
            ("game", .string(target.game)),
            ("layoutVersion", .number(target.layoutVersion)),
            ("inputs", .number(target.inputs)),
            ("outputs", .number(target.outputs)),
            ("gameConfigHash", .string(String(gameConfigHash, radix: 16))),
            ("gameConfig", gameConfig),
        ]
        if let variants { members.append(("variants", variants.json)) }
        members += [
            ("weights", try floats(policy.weights, "weights")),
            ("bias", try floats(policy.bias, "bias")),
        ]
        if let n = policy.normalizer {
            members.append(("normalizer", .object([
                ("count", .number(n.count)),
                ("mean", try doubles(n.mean, "normalizer.mean")),
                ("m2", try doubles(n.m2, "normalizer.m2")),
            ])))
        } else {
            members.append(("normalizer", .null))
        }
        if let t = training {
            var state: [(String, JSONValue)] = [
                ("trainer", .string(t.trainer)),
                ("trainConfigHash", .string(String(t.trainConfigHash, radix: 16))),
                ("iteration", .number(t.iteration)),
                ("envSteps", .number(t.envSteps)),
                ("wallSeconds", .number(t.wallSeconds)),
                ("optimizer", try Self.encode(t.optimizer, "training.optimizer")),
                ("baseline", try floats(t.baseline, "training.baseline")),
            ]
            state.append(("baselineOptimizer", try t.baselineOptimizer.map { (a) throws(CheckpointError) in
                try Self.encode(a, "training.baselineOptimizer")
            } ?? .null))
            state.append(("bestScore", t.bestScore.map { .number($0) } ?? .null))
            state.append(("bestIteration", .number(t.bestIteration)))
            members.append(("training", .object(state)))
        } else {
            members.append(("training", .null))
        }
        return JSONValue.object(members).serialized() + "\n"
    }

    static func encode(_ a: Adam, _ name: String) throws(CheckpointError) -> JSONValue {
        guard a.m.allSatisfy(\.isFinite), a.v.allSatisfy(\.isFinite) else { throw .nonFinite(name) }
        return .object([
            ("learningRate", .number(a.learningRate)),
            ("weightDecay", .number(a.weightDecay)),
            ("t", .number(a.t)),
            ("m", .array(a.m.map { .number($0) })),
            ("v", .array(a.v.map { .number($0) })),
        ])
    }

    // MARK: - Decoding

    /// Reads and checks a checkpoint file.
    /// - Throws: ``CheckpointError`` naming the file: unreadable, corrupt,
    ///   or an unsupported format version.
    public static func load(path: String) throws(CheckpointError) -> Checkpoint {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path)
                ? "not readable" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .corrupt(path: path, reason: "not UTF-8 text")
        }
        return try decode(text, path: path)
    }

    /// Parses a checkpoint document (see the type's description).
    public static func decode(_ text: String, path: String) throws(CheckpointError) -> Checkpoint {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw .corrupt(path: path, reason: error.description) }
        let r = Reader(path: path, doc: doc)
        guard case .object = doc else { throw .corrupt(path: path, reason: "not a JSON object") }
        guard try r.string("format") == formatName else {
            throw .corrupt(path: path, reason: "\"format\" is not \"\(formatName)\" (not a policy checkpoint)")
        }
        let version = try r.int("formatVersion")
        guard version >= 1, version <= formatVersion else {
            throw .unsupportedVersion(path: path, found: version, supported: formatVersion)
        }
        let target = PolicyTarget(game: try r.string("game"), layoutVersion: try r.int("layoutVersion"),
                                  inputs: try r.int("inputs", 1 ... 1_000_000), outputs: try r.int("outputs", 1 ... 1_000))
        let gameConfigHash = try r.hex("gameConfigHash")
        guard let gameConfig = doc["gameConfig"], case .object = gameConfig else {
            throw .corrupt(path: path, reason: "missing or malformed \"gameConfig\"")
        }
        var variants: PolicyContext?
        if let v = doc["variants"], v != .null { variants = try PolicyContext.decode(v, path: path) }
        let weights = try r.floats("weights", count: target.inputs * target.outputs)
        let bias = try r.floats("bias", count: target.outputs)
        var normalizer: ObservationNormalizer?
        if let n = doc["normalizer"], n != .null {
            let nr = Reader(path: path, doc: n, prefix: "normalizer.")
            let count = try nr.double("count")
            guard count >= 0 else { throw .corrupt(path: path, reason: "\"normalizer.count\" is negative") }
            normalizer = ObservationNormalizer(count: count, mean: try nr.doubles("mean", count: target.inputs),
                                               m2: try nr.doubles("m2", count: target.inputs))
        }
        let parameterCount = target.outputs * (target.inputs + 1)
        var training: TrainerState?
        if let t = doc["training"], t != .null {
            let tr = Reader(path: path, doc: t, prefix: "training.")
            let trainer = try tr.string("trainer")
            guard ["es", "reinforce"].contains(trainer) else {
                throw .corrupt(path: path, reason: "\"training.trainer\" = \"\(trainer)\" is not es or reinforce")
            }
            let optimizer = try tr.adam("optimizer", parameters: parameterCount)
            let baseline = try tr.floats("baseline", count: nil)
            var baselineOptimizer: Adam?
            if let b = t["baselineOptimizer"], b != .null {
                baselineOptimizer = try tr.adam("baselineOptimizer", parameters: baseline.count)
            }
            var bestScore: Double?
            if let b = t["bestScore"], b != .null { bestScore = try tr.double("bestScore") }
            training = TrainerState(trainer: trainer, trainConfigHash: try tr.hex("trainConfigHash"),
                                    iteration: try tr.int("iteration", 0 ... Int.max),
                                    envSteps: try tr.int("envSteps", 0 ... Int.max),
                                    wallSeconds: try tr.double("wallSeconds"), optimizer: optimizer,
                                    baseline: baseline, baselineOptimizer: baselineOptimizer,
                                    bestScore: bestScore, bestIteration: try tr.int("bestIteration", 0 ... Int.max))
        }
        let policy = LinearPolicy(inputs: target.inputs, outputs: target.outputs, weights: weights, bias: bias,
                                  normalizer: normalizer)
        return Checkpoint(target: target, gameConfigHash: gameConfigHash, gameConfig: gameConfig,
                          policy: policy, variants: variants, training: training)
    }
}

/// Typed field access with errors that name the file and the field.
struct Reader {
    let path: String
    let doc: JSONValue
    var prefix = ""

    func value(_ key: String) throws(CheckpointError) -> JSONValue {
        guard let v = doc[key] else { throw .corrupt(path: path, reason: "missing field \"\(prefix)\(key)\"") }
        return v
    }

    func bad(_ key: String, _ expected: String) -> CheckpointError {
        .corrupt(path: path, reason: "field \"\(prefix)\(key)\" must be \(expected)")
    }

    func string(_ key: String) throws(CheckpointError) -> String {
        guard case let .string(s) = try value(key) else { throw bad(key, "a string") }
        return s
    }

    func int(_ key: String, _ range: ClosedRange<Int> = Int.min ... Int.max) throws(CheckpointError) -> Int {
        guard case let .number(_, text) = try value(key), let i = Int(text), range.contains(i) else {
            throw bad(key, "an integer\(range.lowerBound == Int.min ? "" : " in \(range.lowerBound) ... \(range.upperBound == Int.max ? "" : String(range.upperBound))")")
        }
        return i
    }

    func hex(_ key: String) throws(CheckpointError) -> UInt64 {
        guard case let .string(s) = try value(key), let h = UInt64(s, radix: 16) else {
            throw bad(key, "a hexadecimal hash string")
        }
        return h
    }

    func double(_ key: String) throws(CheckpointError) -> Double {
        guard case let .number(_, text) = try value(key), let d = Double(text), d.isFinite else {
            throw bad(key, "a finite number")
        }
        return d
    }

    func floats(_ key: String, count: Int?) throws(CheckpointError) -> [Float] {
        guard case let .array(items) = try value(key) else { throw bad(key, "an array of numbers") }
        if let count, items.count != count {
            throw .corrupt(path: path, reason: "field \"\(prefix)\(key)\" has \(items.count) numbers, expected \(count)")
        }
        var out: [Float] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard case let .number(_, text) = item, let f = Float(text), f.isFinite else {
                throw bad(key, "an array of finite numbers")
            }
            out.append(f)
        }
        return out
    }

    func bool(_ key: String) throws(CheckpointError) -> Bool {
        guard case let .bool(b) = try value(key) else { throw bad(key, "true or false") }
        return b
    }

    func strings(_ key: String) throws(CheckpointError) -> [String] {
        guard case let .array(items) = try value(key) else { throw bad(key, "an array of strings") }
        var out: [String] = []
        for item in items {
            guard case let .string(s) = item else { throw bad(key, "an array of strings") }
            out.append(s)
        }
        return out
    }

    func doubles(_ key: String, count: Int) throws(CheckpointError) -> [Double] {
        guard case let .array(items) = try value(key), items.count == count else {
            throw bad(key, "an array of \(count) numbers")
        }
        var out: [Double] = []
        for item in items {
            guard case let .number(_, text) = item, let d = Double(text), d.isFinite else {
                throw bad(key, "an array of finite numbers")
            }
            out.append(d)
        }
        return out
    }

    func adam(_ key: String, parameters: Int) throws(CheckpointError) -> Adam {
        let r = Reader(path: path, doc: try value(key), prefix: prefix + key + ".")
        let lr = try r.floats1("learningRate")
        let decay = try r.floats1("weightDecay")
        return Adam(learningRate: lr, weightDecay: decay, m: try r.floats("m", count: parameters),
                    v: try r.floats("v", count: parameters), t: try r.int("t", 0 ... Int.max))
    }

    func floats1(_ key: String) throws(CheckpointError) -> Float {
        guard case let .number(_, text) = try value(key), let f = Float(text), f.isFinite else {
            throw bad(key, "a finite number")
        }
        return f
    }
}

/// Why a checkpoint cannot be used; each names the file.
public enum CheckpointError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case unsupportedVersion(path: String, found: Int, supported: Int)
    case wrongGame(path: String, found: String, expected: String)
    case wrongLayout(path: String, game: String, found: Int, expected: Int)
    case wrongShape(path: String, found: PolicyTarget, expected: PolicyTarget)
    /// Resuming with a different training config.
    case configMismatch(path: String, found: UInt64, expected: UInt64)
    /// Resuming from a checkpoint that holds no training state.
    case notResumable(path: String)
    /// A weight or statistic is NaN or infinite (not saved).
    case nonFinite(String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read checkpoint \(path): \(reason)"
        case let .corrupt(path, reason):
            "checkpoint \(path) is corrupt: \(reason)"
        case let .unsupportedVersion(path, found, supported):
            "checkpoint \(path) has format version \(found); this build reads version \(supported)"
        case let .wrongGame(path, found, expected):
            "checkpoint \(path) is a policy for \(found), not \(expected)"
        case let .wrongLayout(path, game, found, expected):
            "checkpoint \(path) was made for \(game) observation layout v\(found); this build's layout is v\(expected)"
        case let .wrongShape(path, found, expected):
            "checkpoint \(path) has shape \(found.inputs) inputs × \(found.outputs) actions; this game needs \(expected.inputs) × \(expected.outputs)"
        case let .configMismatch(path, found, expected):
            "checkpoint \(path) was trained with config hash \(String(found, radix: 16)), but the run's config hash is \(String(expected, radix: 16))"
        case let .notResumable(path):
            "checkpoint \(path) holds no training state (it is a policy only), so it cannot be resumed"
        case let .nonFinite(name):
            "cannot save checkpoint: \(name) contains NaN or infinity (training diverged)"
        }
    }
}
