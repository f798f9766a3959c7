import Foundation
import Gym

/// An external agent (docs/agents.md) as a ``BatchAgent``: one process per
/// instance (one instance per roster entry per worker), serving all the
/// instance's games; each ``act(_:)`` is one ACT message with every row.
/// Faults (the process exited, crashed, hung past its time limit, wrote
/// junk, answered the wrong count or an action out of range) are thrown as
/// ``AgentFault``s naming the agent, the game and step, what was wrong and
/// the last lines of its standard error. The process is told goodbye when
/// the instance is released.
public final class ProcessAgent<Game: PlayableGame>: BatchAgent {
    let connection: AgentConnection
    let seating: AgentSeating
    /// Pixel agents: the caller's vector and how to draw one of its games.
    let pixels: PixelSource<Game>?
    let observationCount: Int
    /// Row k's action as the agent answered, before it goes to its game's place.
    let replies: UnsafeMutablePointer<Int32>

    public var games: Int { seating.games }
    /// The name the agent gave in its WELCOME.
    public var agentName: String { connection.agentName }

    /// Starts `file`'s program and shakes hands.
    /// - Throws: ``AgentFault`` when it cannot be started, refuses, or the
    ///   spec was read from a file and nobody allowed its program to start.
    public init(spec: AgentSpec, file: ExternalAgentFile, context: AgentContext<Game>) throws(AgentFault) {
        guard file.mayStart else {
            throw AgentFault(agent: spec.displayName, message: "was read from a file (\(spec.text)); an external agent's program starts only when the agent is named on the command line or allowed with --allow-agent-programs")
        }
        seating = context.seating
        observationCount = context.target.inputs
        let hello: AgentProtocol.Hello
        let config = context.config
        switch file.observation {
        case .features:
            pixels = nil
            hello = .init(pixels: false, width: observationCount, height: 1, actions: context.target.outputs,
                          games: context.games, seats: Game.seats, configHash: config.configHash, game: Game.name,
                          config: config.json.serialized(pretty: false))
        case let .pixels(width, height):
            guard let vector = context.vector, let size = PixelObservation(width: width, height: height),
                  let source = PixelSource<Game>(vector: vector, config: config, size: size)
            else {
                throw AgentFault(agent: spec.displayName, message: "observes pixels, which this command cannot render for it (only features)")
            }
            pixels = source
            hello = .init(pixels: true, width: width, height: height, actions: context.target.outputs,
                          games: context.games, seats: Game.seats, configHash: config.configHash, game: Game.name,
                          config: config.json.serialized(pretty: false))
        }
        connection = try AgentConnection(file: file, displayName: spec.displayName, hello: hello,
                                         logPath: AgentLogs.path(for: spec.displayName))
        replies = .allocate(capacity: max(context.games, 1))
    }

    deinit {
        connection.close()
        replies.deallocate()
    }

    public func start(game: Int, seed: UInt64) throws(AgentFault) {
        connection.start(game: game, seat: seating.seat(game), seed: seed)
    }

    public func end(game: Int) throws(AgentFault) { connection.end(game: game) }

    public func act(_ rows: AgentRows) throws(AgentFault) {
        let n = observationCount
        if let pixels {
            try connection.act(count: rows.count, games: rows.games, actions: replies) { k, out in
                let g = rows.game(k)
                pixels.render(slot: seating.slot(g), seat: seating.seat(g), into: out.assumingMemoryBound(to: UInt8.self))
            }
        } else {
            // Little-endian float32 rows: this machine's own layout (x86-64, arm64).
            try connection.act(count: rows.count, games: rows.games, actions: replies) { k, out in
                out.copyMemory(from: rows.observations + rows.game(k) * rows.stride, byteCount: 4 * n)
            }
        }
        for k in 0 ..< rows.count { rows.setAction(k, replies[k]) }
    }
}

/// Where external agents' standard error goes: `agents/NAME-K.log` in the
/// folder a command sets (its results folder), else a temporary folder.
public enum AgentLogs {
    nonisolated(unsafe) static var folder: String?
    static let lock = NSLock()
    nonisolated(unsafe) static var started = 0

    /// Sets the folder logs go to (a results folder); `agents/` is made in it when needed.
    public static func use(folder: String?) {
        lock.lock()
        defer { lock.unlock() }
        self.folder = folder
    }

    /// A new log file's path for an agent named `name`.
    static func path(for name: String) -> String {
        lock.lock()
        let base = folder ?? NSTemporaryDirectory() + "pbgym-agent-logs-\(getpid())"
        started += 1
        let k = started
        lock.unlock()
        let dir = base + (folder == nil ? "" : "/agents")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }.prefix(60))
        return dir + "/\(safe)-\(k).log"
    }
}
