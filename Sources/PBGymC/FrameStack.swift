import Gym

/// Pixel observations stacked over the last `depth` agent steps, kept by the
/// library (one ring of frames per game and seat), written to the caller in
/// one of two layouts.
///
/// Semantics are Gymnasium's `FrameStackObservation` with its default
/// padding (`"reset"`): the stack holds the newest `depth` frames, oldest
/// first; at an episode's start (a reset, an automatic restart, a restored
/// snapshot) every entry is that episode's first frame. So game `i` of a
/// stacked vector env shows exactly what `FrameStackObservation` over a
/// single env shows (`depth` frames on a leading axis), moved to the
/// caller's channel axis.
///
/// Layouts of one seat's observation (`H × W` frames, `k = depth`):
/// - ``Order/last`` (channels-last, `H × W × k`): byte `(y × W + x) × k + j`
///   is pixel `(y, x)` of frame `j` (what SB3's and most image tooling's
///   defaults expect);
/// - ``Order/first`` (channels-first, `k × H × W`): frame `j` is the
///   `j`-th `H × W` plane (PyTorch's convolution layout).
/// With `depth` 1 the two layouts are the same bytes as an unstacked frame,
/// so the session renders straight into the caller's buffer and keeps no
/// stack (``Session``).
final class FrameStack {
    enum Order: String, CaseIterable { case last, first }

    /// Frames per stack (2 ... ``EnvConfig/maxFrameStack``).
    let depth: Int
    let order: Order
    /// Bytes of one frame (`H × W`).
    let frameBytes: Int
    /// Stacks kept: one per game and seat (`game × seats + seat`).
    let stacks: Int
    /// `stacks × depth × frameBytes` bytes; stack `s`'s entry `r` at
    /// `(s × depth + r) × frameBytes`, a ring whose newest entry is `newest[s]`.
    let frames: UnsafeMutablePointer<UInt8>
    var newest: [Int]

    init(depth: Int, order: Order, frameBytes: Int, stacks: Int) {
        self.depth = depth
        self.order = order
        self.frameBytes = frameBytes
        self.stacks = stacks
        frames = .allocate(capacity: stacks * depth * frameBytes)
        frames.initialize(repeating: 0, count: stacks * depth * frameBytes)
        newest = Array(repeating: depth - 1, count: stacks)
    }

    deinit { frames.deallocate() }

    /// Bytes of one seat's stacked observation.
    var seatBytes: Int { depth * frameBytes }

    /// Stack `s`'s entry `r` of the ring (not its age order).
    func entry(_ s: Int, _ r: Int) -> UnsafeMutablePointer<UInt8> { frames + (s * depth + r) * frameBytes }

    /// Stack `s`'s `j`-th frame, oldest first (`j` in `0 ..< depth`).
    func frame(_ s: Int, age j: Int) -> UnsafeMutablePointer<UInt8> {
        entry(s, (newest[s] + 1 + j) % depth)
    }

    /// Drops stack `s`'s oldest frame and returns where its newest one is to
    /// be drawn.
    func push(_ s: Int) -> UnsafeMutablePointer<UInt8> {
        newest[s] = (newest[s] + 1) % depth
        return entry(s, newest[s])
    }

    /// Stack `s` at an episode's start: every entry becomes its newest frame.
    func fill(_ s: Int) {
        let src = entry(s, newest[s])
        for r in 0 ..< depth where r != newest[s] { entry(s, r).update(from: src, count: frameBytes) }
    }

    /// Writes stack `s` in the caller's layout (``seatBytes`` bytes at `out`).
    func write(_ s: Int, into out: UnsafeMutablePointer<UInt8>) {
        switch order {
        case .first:
            for j in 0 ..< depth { (out + j * frameBytes).update(from: frame(s, age: j), count: frameBytes) }
        case .last:
            if depth == 4 {
                interleave4(frame(s, age: 0), frame(s, age: 1), frame(s, age: 2), frame(s, age: 3), into: out)
                return
            }
            if depth == 2 {
                interleave2(frame(s, age: 0), frame(s, age: 1), into: out)
                return
            }
            // Frame by frame into every `depth`-th byte; sizes and sources in
            // locals (a store through `out` could alias this object, so its
            // properties would be read again at every byte).
            let depth = self.depth, n = frameBytes
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<UInt8>.self, capacity: depth) { sources in
                for j in 0 ..< depth { sources[j] = frame(s, age: j) }
                for j in 0 ..< depth {
                    let src = sources[j]
                    var o = out + j
                    for p in 0 ..< n {
                        o.pointee = src[p]
                        o += depth
                    }
                }
            }
        }
    }

    /// Channels-last for depth 2: one 16-bit word per pixel (as ``interleave4``).
    private func interleave2(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>,
                             into out: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(out)
        for p in 0 ..< frameBytes {
            let word = UInt16(a[p]) | UInt16(b[p]) << 8
            raw.storeBytes(of: word.littleEndian, toByteOffset: 2 * p, as: UInt16.self)
        }
    }

    /// Channels-last for the usual depth 4: one 32-bit word per pixel
    /// (frame `j` in byte `j`, little-endian), a loop the compiler vectorises.
    private func interleave4(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>,
                             _ c: UnsafeMutablePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>,
                             into out: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(out)
        for p in 0 ..< frameBytes {
            let word = UInt32(a[p]) | UInt32(b[p]) << 8 | UInt32(c[p]) << 16 | UInt32(d[p]) << 24
            raw.storeBytes(of: word.littleEndian, toByteOffset: 4 * p, as: UInt32.self)
        }
    }

    /// Copies stack `s` out as `depth` frames, oldest first (``seatBytes``
    /// bytes: the channels-first layout, whatever ``order`` is).
    func save(_ s: Int, into out: UnsafeMutablePointer<UInt8>) {
        for j in 0 ..< depth { (out + j * frameBytes).update(from: frame(s, age: j), count: frameBytes) }
    }

    /// Replaces stack `s` with `depth` frames, oldest first (as ``save`` writes them).
    func load(_ s: Int, from data: UnsafePointer<UInt8>) {
        newest[s] = depth - 1
        for j in 0 ..< depth { entry(s, j).update(from: data + j * frameBytes, count: frameBytes) }
    }
}

/// The session's side of frame stacking: which frames are pushed when.
extension Session {
    /// Every seat of game `i` pushes the frame of its current state; at an
    /// episode's start (`starting`) the stack is filled with it.
    func advanceStack(_ stack: FrameStack, game i: Int, starting: Bool) {
        for s in 0 ..< seats {
            let k = i * seats + s
            games.renderObservation(i, seat: s, size: config.pixelSize, into: stack.push(k))
            if starting { stack.fill(k) }
        }
    }

    /// Game `i`'s stacks (every seat, oldest frame first) as bytes.
    func savedStack(_ i: Int) -> [UInt8] {
        guard let stack else { return [] }
        var out = [UInt8](repeating: 0, count: seats * stack.seatBytes)
        out.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for s in 0 ..< seats { stack.save(i * seats + s, into: base + s * stack.seatBytes) }
        }
        return out
    }

    /// Replaces game `i`'s stacks with `data` (as ``savedStack(_:)`` wrote
    /// them) and writes the bound pixel buffer's row of game `i`.
    func loadStack(_ i: Int, from data: UnsafeBufferPointer<UInt8>) throws(ABIError) {
        guard let stack else {
            throw ABIError(.invalidArgument, "stack_load: the environment stacks no frames (frame_stack 1)")
        }
        let need = seats * stack.seatBytes
        guard data.count == need, let base = data.baseAddress else {
            throw ABIError(.invalidArgument, "stack_load: \(data.count) bytes given, game \(i)'s stacks hold \(need)")
        }
        for s in 0 ..< seats { stack.load(i * seats + s, from: base + s * stack.seatBytes) }
        if let px = buffer(.pixels, UInt8.self) { renderSeats(i, into: px) }
    }
}
