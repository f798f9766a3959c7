import Gym

// The C ABI: every function validates its arguments, returns an
// ``ABIStatus`` (0 = success) and, on failure, leaves one line naming the
// problem as the calling thread's last error (`pbg_last_error`). No input
// traps. Handles are numbers from a registry (a stale one is an error).
// Buffers belong to the caller; `pbg_bind` records a buffer once (with its
// size, checked then) and `pbg_reset`/`pbg_step`/`pbg_observe` write into it.

/// The ABI version (bumped when a signature or a meaning changes).
@_cdecl("pbg_abi_version")
public func pbg_abi_version() -> Int32 { Session.abiVersion }

/// What the library is, whatever the environment, as JSON text: its
/// `abi_version`, `status_names` (entry k names status k) and `slot_names`
/// (entry k names buffer slot k of `pbg_bind`), so that a caller reads the
/// numbers instead of restating them.
@_cdecl("pbg_library_info")
public func pbg_library_info(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int64,
                             _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        try copyText(Session.libraryInfo.serialized(pretty: false), buf, cap, needed, what: "library info")
    }
}

/// Copies the thread's last error text (UTF-8, NUL-terminated, cut to fit)
/// into `buf` of `cap` bytes; returns the full text's length in bytes.
@_cdecl("pbg_last_error")
public func pbg_last_error(_ buf: UnsafeMutablePointer<CChar>?, _ cap: Int64) -> Int64 {
    let text = LastError.bytes
    if let buf, cap > 0 {
        let n = min(text.count, Int(cap) - 1)
        for k in 0 ..< n { buf[k] = CChar(bitPattern: text[k]) }
        buf[n] = 0
    }
    return Int64(text.count)
}

/// The caller's `len` bytes at `data` (at most 16 GiB), or one error naming `what`.
func inputBytes(_ data: UnsafePointer<UInt8>?, _ len: Int64, what: String) throws(ABIError) -> UnsafeBufferPointer<UInt8> {
    guard let data else { throw ABIError(.invalidArgument, "\(what): the data pointer is null") }
    guard len >= 0, len <= 1 << 34 else { throw ABIError(.invalidArgument, "\(what): length \(len) is out of range") }
    return UnsafeBufferPointer(start: data, count: Int(len))
}

/// Writes `bytes` into `buf` (`needed` gets their count); a short (or null)
/// buffer is `bufferTooSmall`, naming `what`.
func copyBytes(_ bytes: [UInt8], _ buf: UnsafeMutablePointer<UInt8>?, _ cap: Int64,
               _ needed: UnsafeMutablePointer<Int64>?, what: String) throws(ABIError) {
    needed?.pointee = Int64(bytes.count)
    guard let buf, cap >= Int64(bytes.count) else {
        throw ABIError(.bufferTooSmall, "\(what): needs \(bytes.count) bytes, the buffer holds \(max(0, cap))")
    }
    for k in 0 ..< bytes.count { buf[k] = bytes[k] }
}

/// Writes `text` with a NUL into `buf` (`needed` gets its length plus 1).
func copyText(_ text: String, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int64,
              _ needed: UnsafeMutablePointer<Int64>?, what: String) throws(ABIError) {
    let bytes = Array(text.utf8)
    needed?.pointee = Int64(bytes.count + 1)
    guard let buf, cap >= Int64(bytes.count + 1) else {
        throw ABIError(.bufferTooSmall, "\(what): the text needs \(bytes.count + 1) bytes, the buffer holds \(max(0, cap))")
    }
    for k in 0 ..< bytes.count { buf[k] = CChar(bitPattern: bytes[k]) }
    buf[bytes.count] = 0
}

/// Creates an environment from a JSON config text (see ``EnvConfig``);
/// its handle goes to `handle`.
@_cdecl("pbg_create")
public func pbg_create(_ json: UnsafePointer<CChar>?, _ handle: UnsafeMutablePointer<UInt64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        guard let json else { throw ABIError(.invalidArgument, "create: the config text is null") }
        guard let handle else { throw ABIError(.invalidArgument, "create: the handle pointer is null") }
        let session = try Session(EnvConfig.parse(String(cString: json)))
        handle.pointee = Registry.add(session)
    }
}

/// Closes an environment (its handle becomes stale).
@_cdecl("pbg_destroy")
public func pbg_destroy(_ h: UInt64) -> Int32 {
    abiCall { () throws(ABIError) in try Registry.remove(h) }
}

/// The environment's description as JSON text (sizes, seats, actions,
/// pixel shape, layout version, names, effective config).
@_cdecl("pbg_info")
public func pbg_info(_ h: UInt64, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int64,
                     _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let text = try Registry.with(h) { s throws(ABIError) in s.info.serialized(pretty: false) }
        try copyText(text, buf, cap, needed, what: "info")
    }
}

/// The observation bounds of one seat: `n` (the observation length) floats each.
@_cdecl("pbg_bounds")
public func pbg_bounds(_ h: UInt64, _ lower: UnsafeMutablePointer<Float>?, _ upper: UnsafeMutablePointer<Float>?,
                       _ n: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            let l = s.games.layout
            guard let lower, let upper else { throw ABIError(.invalidArgument, "bounds: a buffer is null") }
            guard n >= Int64(l.count) else {
                throw ABIError(.bufferTooSmall, "bounds: buffers hold \(n) floats, the observation has \(l.count)")
            }
            for k in 0 ..< l.count { lower[k] = l.lower[k]; upper[k] = l.upper[k] }
        }
    }
}

/// Binds (or, with a null address, unbinds) the caller's buffer for `slot`
/// (0 actions i64, or i32 when created with `"action_dtype": "int32"`,
/// 1 observations f32, 2 pixels u8, 3 rewards f64, or f32 with
/// `"reward_dtype": "float32"`, 4 terminated u8 and 5 truncated u8 (0 or 1:
/// a C or numpy bool), 6 ends u8, 7 events i32, 8 scores i32, 9 final
/// observations f32, 10 final pixels u8), aligned to its element's size;
/// `bytes` is its size (at least the slot's, `pbg_slot_bytes`). An int32
/// action or float32 reward buffer is the game's own type, read or written
/// in place by each step; an int64 or float64 one is converted each step.
@_cdecl("pbg_bind")
public func pbg_bind(_ h: UInt64, _ slot: Int32, _ address: UnsafeMutableRawPointer?, _ bytes: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            try s.bind(slot, address: UInt(bitPattern: address), bytes: bytes)
        }
    }
}

/// Bytes the buffer of `slot` needs (into `needed`).
@_cdecl("pbg_slot_bytes")
public func pbg_slot_bytes(_ h: UInt64, _ slot: Int32, _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            guard let needed else { throw ABIError(.invalidArgument, "slot_bytes: the result pointer is null") }
            guard let sl = Session.Slot(rawValue: slot) else {
                throw ABIError(.invalidArgument, "slot_bytes: slot \(slot) is not a buffer slot; allowed: 0 ... \(Session.Slot.allCases.count - 1)")
            }
            needed.pointee = Int64(s.bytes(sl))
        }
    }
}

/// Starts new episodes: every game (mask null) or those with `mask[i] != 0`;
/// with `seeds` (n entries) game `i` restarts its seed stream from
/// `seeds[i]`, without it each game goes on to its next episode. Writes
/// the bound observation, pixel and score buffers.
@_cdecl("pbg_reset")
public func pbg_reset(_ h: UInt64, _ mask: UnsafePointer<UInt8>?, _ seeds: UnsafePointer<UInt64>?, _ n: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in try s.reset(mask: mask, seeds: seeds, n: n) }
    }
}

/// One step of every game with the bound actions, into the bound buffers.
/// Every action is checked first (status `badAction`, naming the game, the
/// seat when there are two, the value and the range; nothing is stepped).
/// `observations` (`bytes` long), when not null, is then bound as the
/// buffer of the environment's observation type (slot 1 for features, 2
/// for pixels; checked as `pbg_bind` checks) before the step writes it, so
/// each step can go to a new array without a copy; null keeps the bound one.
@_cdecl("pbg_step")
public func pbg_step(_ h: UInt64, _ observations: UnsafeMutableRawPointer?, _ bytes: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in try s.step(observations: observations, bytes: bytes) }
    }
}

/// `pbg_step` into buffers bound for it: `buffers` holds `n` triples of
/// Int64 (slot, address, bytes), each bound once the actions have passed
/// their check, as `pbg_bind` binds it (no address null, no action
/// buffer), all or none, before the step writes its outputs into them. So
/// each step's observations, rewards and flags can go to arrays of its
/// own without a copy; a failure binds and steps nothing.
@_cdecl("pbg_step_into")
public func pbg_step_into(_ h: UInt64, _ buffers: UnsafePointer<Int64>?, _ n: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            guard n >= 0, n <= Int64(Session.Slot.allCases.count), buffers != nil || n == 0 else {
                throw ABIError(.invalidArgument, "step_into: \(n) buffers at \(buffers.map { "\($0)" } ?? "null"); allowed: 0 ... \(Session.Slot.allCases.count) triples at a non-null address")
            }
            try s.step { () throws(ABIError) in
                if let buffers { try s.bind(entries: buffers, count: Int(n), what: "step_into") }
            }
        }
    }
}

/// The library's own stepping loop, for benchmarks: `steps` steps of every
/// game, each first copying action set `k mod sets` of `actions` (`sets ×
/// N × S` Int64, drawn by the caller) into the bound action buffer, then
/// stepping exactly as `pbg_step` does (same buffers, same work), so a
/// caller timing this call measures the library alone in its own config.
/// Into an int32 action buffer the sets are narrowed as they are copied,
/// after every value of every set has passed the step's check (as Int64).
@_cdecl("pbg_bench")
public func pbg_bench(_ h: UInt64, _ steps: Int64, _ actions: UnsafePointer<Int64>?, _ sets: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            guard steps >= 0 else { throw ABIError(.invalidArgument, "bench: steps \(steps) must be >= 0") }
            guard let actions, sets >= 1 else {
                throw ABIError(.invalidArgument, "bench: needs at least one action set (actions non-null, sets >= 1; got \(sets))")
            }
            let per = s.count * s.seats
            switch s.config.actionDType {
            case .int64:
                let target = try s.required(.actions, Int64.self)
                for k in 0 ..< steps {
                    target.update(from: actions + Int(k % sets) * per, count: per)
                    try s.step()
                }
            case .int32:
                let target = try s.required(.actions, Int32.self)
                guard sets <= Int64(Int.max / max(1, per)) else {
                    throw ABIError(.invalidArgument, "bench: \(sets) action sets of \(per) actions are too many")
                }
                try s.check(actions, count: Int(sets) * per, what: "bench")
                for k in 0 ..< steps {
                    let set = actions + Int(k % sets) * per
                    for j in 0 ..< per { target[j] = Int32(truncatingIfNeeded: set[j]) }
                    try s.step()
                }
            }
        }
    }
}

/// Writes the bound observation, pixel and score buffers from the current state.
@_cdecl("pbg_observe")
public func pbg_observe(_ h: UInt64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in s.writeObservations() }
    }
}

/// Game `game` as bytes: with a short (or null) buffer the status is
/// `bufferTooSmall` and `needed` holds the size.
@_cdecl("pbg_snapshot")
public func pbg_snapshot(_ h: UInt64, _ game: Int64, _ buf: UnsafeMutablePointer<UInt8>?, _ cap: Int64,
                         _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let bytes = try Registry.with(h) { s throws(ABIError) in try s.snapshot(s.checkGame(game, "snapshot")) }
        try copyBytes(bytes, buf, cap, needed, what: "snapshot")
    }
}

/// Restores game `game` from `len` snapshot bytes (of this environment's
/// kind and config); the game then continues exactly as the saved one.
/// With `frame_stack` above 1 the game's stacks restart from its restored
/// frame (a snapshot holds the game, not the stack: `pbg_stack_load`).
@_cdecl("pbg_restore")
public func pbg_restore(_ h: UInt64, _ game: Int64, _ data: UnsafePointer<UInt8>?, _ len: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            let i = try s.checkGame(game, "restore")
            try s.restore(inputBytes(data, len, what: "restore"), into: i)
            // A restored game starts its frame stacks afresh (pbg_stack_load sets them).
            if let stack = s.stack { s.advanceStack(stack, game: i, starting: true) }
        }
    }
}

/// Draws game `game` as seat `seat` sees it: `height × width` (0, 0: the
/// game's render size) with 1 (gray) or 3 (RGB, gray replicated) channels,
/// row-major, into `buf` of `cap` bytes.
@_cdecl("pbg_render")
public func pbg_render(_ h: UInt64, _ game: Int64, _ seat: Int32, _ height: Int32, _ width: Int32,
                       _ channels: Int32, _ buf: UnsafeMutablePointer<UInt8>?, _ cap: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            let i = try s.checkGame(game, "render"), seat = try s.checkSeat(seat, "render")
            guard channels == 1 || channels == 3 else {
                throw ABIError(.invalidArgument, "render: channels=\(channels) is invalid; allowed: 1 (gray) or 3 (RGB)")
            }
            let size: PixelObservation
            if height == 0 && width == 0 {
                size = s.games.renderSize
            } else {
                guard let sz = PixelObservation(width: Int(width), height: Int(height)) else {
                    throw ABIError(.invalidArgument, "render: size \(height)x\(width) is invalid; allowed: 1 ... \(PixelObservation.maxSide) each, or 0x0")
                }
                size = sz
            }
            let need = size.byteCount * Int(channels)
            guard let buf, cap >= Int64(need) else {
                throw ABIError(.bufferTooSmall, "render: needs \(need) bytes, the buffer holds \(max(0, cap))")
            }
            s.games.render(i, seat: seat, size: size, into: buf)
            if channels == 3 {
                // Spread the gray bytes to RGB from the end backwards (in place).
                for k in stride(from: size.byteCount - 1, through: 0, by: -1) {
                    let v = buf[k]
                    buf[3 * k] = v; buf[3 * k + 1] = v; buf[3 * k + 2] = v
                }
            }
        }
    }
}

/// Game `game` as text (status line and the field in characters).
@_cdecl("pbg_render_ansi")
public func pbg_render_ansi(_ h: UInt64, _ game: Int64, _ seat: Int32, _ buf: UnsafeMutablePointer<CChar>?,
                            _ cap: Int64, _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let text = try Registry.with(h) { s throws(ABIError) in
            try s.ansi(s.checkGame(game, "render_ansi"), seat: s.checkSeat(seat, "render_ansi"))
        }
        try copyText(text, buf, cap, needed, what: "render_ansi")
    }
}
