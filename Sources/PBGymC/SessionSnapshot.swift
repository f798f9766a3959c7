import Gym

/// One game of a session as bytes, and back.
///
/// Layout (little-endian): magic `PBGS`, format version (u32), kind (u8:
/// 1 single-agent Pong, 2 two-player Pong, 3 Breakout), next-step pending
/// flag (u8: the episode ended and the next step restarts it; on restore
/// the game's own end says so), the restart stream's run seed (u64), the
/// index of the episode being played in it (u64), opponent seed (u64),
/// game JSON length (u32), opponent history length in floats (u32), the
/// game JSON (``Snapshot``), the history (f32 each), then an FNV-1a 64
/// checksum (u64) of every byte before it. A truncated, altered or foreign
/// blob is refused with a message; restoring never traps.
extension Session {
    static let snapshotMagic: [UInt8] = Array("PBGS".utf8)
    static let snapshotVersion: UInt32 = 1
    static let headerBytes = 4 + 4 + 1 + 1 + 8 + 8 + 8 + 4 + 4

    static func fnv(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    func snapshot(_ i: Int) throws(ABIError) -> [UInt8] {
        let p = try games.payload(i)
        var out = Self.snapshotMagic
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(Self.snapshotVersion)
        out.append(kind)
        let stream = games.restartStream(i)
        out.append(config.autoreset == .nextStep && games.ended(i) ? 1 : 0)
        put(stream.runSeed); put(stream.next &- 1); put(p.opponentSeed)
        put(UInt32(p.json.count)); put(UInt32(p.history.count))
        out += p.json
        for f in p.history { put(f.bitPattern) }
        put(Self.fnv(out[...]))
        return out
    }

    func restore(_ data: UnsafeBufferPointer<UInt8>, into i: Int) throws(ABIError) {
        let bytes = Array(data)
        func bad(_ why: String) -> ABIError { ABIError(.badSnapshot, "snapshot: \(why)") }
        guard bytes.count >= Self.headerBytes + 8 else {
            throw bad("\(bytes.count) bytes is too short to be a snapshot (at least \(Self.headerBytes + 8))")
        }
        guard Array(bytes[0 ..< 4]) == Self.snapshotMagic else { throw bad("not a pbgym snapshot (bad magic)") }
        var at = 4
        func get<T: FixedWidthInteger>(_: T.Type) -> T {
            var v: T = 0
            for k in 0 ..< MemoryLayout<T>.size { v |= T(truncatingIfNeeded: bytes[at + k]) << (8 * k) }
            at += MemoryLayout<T>.size
            return v
        }
        let version = get(UInt32.self)
        guard version == Self.snapshotVersion else {
            throw bad("format version \(version) is not supported (this build reads \(Self.snapshotVersion))")
        }
        let k = bytes[at], wasPending = bytes[at + 1]
        at += 2
        let names = [1: "single-agent Pong", 2: "two-player Pong", 3: "Breakout"]
        guard k == kind else {
            throw bad("is of \(names[Int(k)] ?? "unknown kind \(k)"), this environment is \(names[Int(kind)] ?? "?")")
        }
        let runSeed = get(UInt64.self), episode = get(UInt64.self), opponentSeed = get(UInt64.self)
        let jsonCount = Int(get(UInt32.self)), historyCount = Int(get(UInt32.self))
        let total = Self.headerBytes + jsonCount + 4 * historyCount + 8
        guard bytes.count == total else { throw bad("\(bytes.count) bytes, its header announces \(total) (truncated or padded)") }
        let sumAt = total - 8
        at = sumAt
        let sum = get(UInt64.self)
        guard sum == Self.fnv(bytes[0 ..< sumAt]) else { throw bad("checksum mismatch (the bytes were altered)") }
        guard wasPending <= 1 else { throw bad("pending flag \(wasPending) is not 0 or 1") }
        let json = Array(bytes[Self.headerBytes ..< Self.headerBytes + jsonCount])
        at = Self.headerBytes + jsonCount
        var history: [Float] = []
        history.reserveCapacity(historyCount)
        for _ in 0 ..< historyCount { history.append(Float(bitPattern: get(UInt32.self))) }
        try games.restore(GamePayload(json: json, opponentSeed: opponentSeed, history: history), into: i)
        games.setRestartStream(RestartStream(runSeed: runSeed, next: episode &+ 1), i)
    }
}
