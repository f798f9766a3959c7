/// The gym's side of one agent process: the handshake, then START, END and
/// ACT messages (docs/agents.md). START and END frames wait in the output
/// buffer and go out with the next ACT (one write per step). Not thread-safe:
/// one worker owns it.
final class AgentConnection {
    let child: AgentChild
    let file: ExternalAgentFile
    /// The name the gym shows (the spec's display name).
    let displayName: String
    let hello: AgentProtocol.Hello
    /// The name the agent gave in WELCOME.
    private(set) var agentName = ""
    private var out = FrameBuffer()
    private var reply: UnsafeMutableRawBufferPointer
    /// Per game index: steps acted since its START (-1: not started).
    private var steps: [Int]
    private var closed = false

    /// Starts the process and shakes hands.
    init(file: ExternalAgentFile, displayName: String, hello: AgentProtocol.Hello, logPath: String) throws(AgentFault) {
        self.file = file
        self.displayName = displayName
        self.hello = hello
        steps = [Int](repeating: -1, count: hello.games)
        reply = .allocate(byteCount: 8 + 4 + 4 * max(hello.games, 1) + 4096, alignment: 8)
        do { child = try AgentChild(file, logPath: logPath) } catch {
            reply.deallocate()
            throw AgentFault(agent: displayName, message: Self.describe(error))
        }
        out.hello(hello)
        let deadline = ContinuousClock.now + .milliseconds(Int(file.handshakeSeconds * 1000))
        let (type, size) = try exchange(deadline: deadline, limit: file.handshakeSeconds, context: "at the handshake")
        guard type == AgentProtocol.Message.welcome.rawValue, size >= 8 else {
            throw fault("at the handshake", "answered HELLO with message type \(type) (\(size) bytes); WELCOME (0x81) expected")
        }
        let payload = UnsafeRawBufferPointer(start: reply.baseAddress, count: size)
        let version = FrameBuffer.u32(payload, 0), n = Int(FrameBuffer.u32(payload, 4))
        guard n <= size - 8 else { throw fault("at the handshake", "its WELCOME's name runs past the frame") }
        agentName = String(decoding: UnsafeRawBufferPointer(rebasing: payload[8 ..< 8 + n]), as: UTF8.self)
        guard version == AgentProtocol.version else {
            throw fault("at the handshake", "speaks protocol version \(version); this gym speaks \(AgentProtocol.version)")
        }
    }

    deinit {
        child.stop()
        reply.deallocate()
    }

    static func describe(_ error: AgentChildError) -> String {
        switch error {
        case let .spawn(why): why
        case let .timeout(seconds): "no reply within its time limit of \(seconds) s"
        case let .exited(how): "the agent process \(how)"
        case let .io(why): why
        }
    }

    /// The fault: `what` went wrong `when`, with the last lines of its
    /// standard error (the first line is the one the command prints).
    func fault(_ when: String, _ what: String) -> AgentFault {
        child.stop()
        closed = true
        let tail = child.stderrTail()
        let lines = tail.isEmpty ? "(its standard error is empty: \(child.logPath))"
            : "its last standard error lines (\(child.logPath)):\n" + tail.split(separator: "\n").map { "  | \($0)" }.joined(separator: "\n")
        return AgentFault(agent: displayName, message: "(\(file.command.joined(separator: " "))) \(when): \(what)\n\(lines)")
    }

    /// Sends the output buffer, then reads one reply frame into `reply`
    /// (grown as needed); returns its type and payload size. An ERROR reply
    /// becomes a fault carrying its text.
    private func exchange(deadline: ContinuousClock.Instant, limit: Double, context: String) throws(AgentFault) -> (UInt32, Int) {
        guard !closed else { throw AgentFault(agent: displayName, message: "used after it failed") }
        do {
            try send(deadline: deadline, limit: limit)
            try child.read(into: reply.baseAddress!, count: 8, deadline: deadline, limit: limit)
        } catch {
            throw fault(context, Self.describe(error))
        }
        let head = UnsafeRawBufferPointer(reply)
        let length = Int(FrameBuffer.u32(head, 0)), type = FrameBuffer.u32(head, 4)
        guard length >= 4, length <= AgentProtocol.maxFrame, AgentProtocol.Message(rawValue: type) != nil else {
            let junk = head.prefix(8)
            let text = String(decoding: junk.map { $0 >= 32 && $0 < 127 ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            throw fault(context, "junk on its standard output (first bytes \(junk.map { String($0, radix: 16) }.joined(separator: " ")), as text \"\(text)\"); a frame (length, type) expected")
        }
        let size = length - 4
        if size > reply.count {
            reply.deallocate()
            reply = .allocate(byteCount: size, alignment: 8)
        }
        do {
            if size > 0 { try child.read(into: reply.baseAddress!, count: size, deadline: deadline, limit: limit) }
        } catch {
            throw fault(context, Self.describe(error))
        }
        if type == AgentProtocol.Message.error.rawValue {
            let payload = UnsafeRawBufferPointer(start: reply.baseAddress, count: size)
            let n = size >= 4 ? min(Int(FrameBuffer.u32(payload, 0)), size - 4) : 0
            let text = n > 0 ? String(decoding: UnsafeRawBufferPointer(rebasing: payload[4 ..< 4 + n]), as: UTF8.self) : ""
            throw fault(context, "it reported an error: \(text)")
        }
        return (type, size)
    }

    /// Writes the output buffer, then empties it.
    private func send(deadline: ContinuousClock.Instant, limit: Double) throws(AgentChildError) {
        var failure: AgentChildError?
        out.bytes.withUnsafeBytes { b in
            do throws(AgentChildError) { try child.write(b, deadline: deadline, limit: limit) } catch { failure = error }
        }
        out.bytes.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }

    /// Game `game` starts an episode with the agent in `seat`, seeded `seed`.
    func start(game: Int, seat: Int, seed: UInt64) {
        steps[game] = 0
        let at = out.open(.start)
        out.u32(UInt32(game)); out.u32(UInt32(seat)); out.u64(seed)
        out.close(at)
    }

    /// Game `game`'s episode is over.
    func end(game: Int) {
        steps[game] = -1
        let at = out.open(.end)
        out.u32(UInt32(game))
        out.close(at)
    }

    /// One ACT for `count` rows: row k of game `games[k]`, its bytes written
    /// by `fill(k, destination)` (``AgentProtocol/Hello/rowBytes`` bytes);
    /// the agent's actions go to `actions[k]`.
    func act(count: Int, games: UnsafePointer<Int32>, actions: UnsafeMutablePointer<Int32>,
             fill: (Int, UnsafeMutableRawPointer) -> Void) throws(AgentFault) {
        let rowBytes = hello.rowBytes
        let at = out.open(.act)
        out.u32(UInt32(count))
        for k in 0 ..< count { out.u32(UInt32(bitPattern: games[k])) }
        let rows = out.bytes.count
        out.bytes.append(contentsOf: repeatElement(0, count: count * rowBytes))
        out.bytes.withUnsafeMutableBytes { b in
            for k in 0 ..< count { fill(k, b.baseAddress! + rows + k * rowBytes) }
        }
        out.close(at)
        let first = Int(games[0])
        let step = first >= 0 && first < steps.count ? steps[first] : -1
        let context = count == 1 ? "at game \(first), step \(step)" : "at the step of \(count) games (game \(first) at step \(step))"
        let deadline = ContinuousClock.now + .milliseconds(Int(file.actSeconds * 1000))
        let (type, size) = try exchange(deadline: deadline, limit: file.actSeconds, context: context)
        guard type == AgentProtocol.Message.actions.rawValue else {
            throw fault(context, "answered ACT with message type \(type); ACTIONS (0x84) expected")
        }
        let payload = UnsafeRawBufferPointer(start: reply.baseAddress, count: size)
        guard size >= 4 else { throw fault(context, "sent an ACTIONS of \(size) bytes; at least 4 expected") }
        let n = Int(FrameBuffer.u32(payload, 0))
        guard n == count, size == 4 + 4 * n else {
            throw fault(context, "sent \(n) actions in \(size) bytes for \(count) rows; \(count) actions in \(4 + 4 * count) bytes expected")
        }
        for k in 0 ..< count {
            let a = Int32(bitPattern: FrameBuffer.u32(payload, 4 + 4 * k))
            guard a >= 0, Int(a) < hello.actions else {
                let g = Int(games[k])
                throw fault("at game \(g), step \(g >= 0 && g < steps.count ? steps[g] : -1)",
                            "action \(a) is out of range; actions are 0 ... \(hello.actions - 1)")
            }
            actions[k] = a
            let g = Int(games[k])
            if g >= 0, g < steps.count { steps[g] += 1 }
        }
    }

    /// Says goodbye and waits for the process to exit (then kills it).
    /// Returns its exit status when it exited by itself in time.
    @discardableResult
    func close() -> Int32? {
        guard !closed else { return nil }
        closed = true
        let at = out.open(.bye)
        out.close(at)
        let deadline = ContinuousClock.now + .milliseconds(Int(file.byeSeconds * 1000))
        do { try send(deadline: deadline, limit: file.byeSeconds) } catch {
            child.stop()
            return nil
        }
        return child.finish(seconds: file.byeSeconds)
    }
}
