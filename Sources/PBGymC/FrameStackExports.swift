/// The C ABI of frame stacks (``FrameStack``): a game's stacked frames out
/// and back in, so a copy of an environment (a snapshot of each game plus
/// its stacks) continues exactly as the original.

/// Game `game`'s stacks, every seat's `frame_stack` frames oldest first
/// (`seats × frame_stack × height × width` bytes, channels-first whatever
/// the environment's `channels_order`): with a short (or null) buffer the
/// status is `bufferTooSmall` and `needed` holds the size. An environment
/// without stacking (`frame_stack` 1) has none: status `invalidArgument`.
@_cdecl("pbg_stack_save")
public func pbg_stack_save(_ h: UInt64, _ game: Int64, _ buf: UnsafeMutablePointer<UInt8>?, _ cap: Int64,
                           _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let bytes = try Registry.with(h) { s throws(ABIError) in
            let i = try s.checkGame(game, "stack_save")
            guard s.stack != nil else {
                throw ABIError(.invalidArgument, "stack_save: the environment stacks no frames (frame_stack 1)")
            }
            return s.savedStack(i)
        }
        try copyBytes(bytes, buf, cap, needed, what: "stack_save")
    }
}

/// Replaces game `game`'s stacks with `len` bytes as `pbg_stack_save`
/// wrote them (exactly that size) and writes the game's row of the bound
/// pixel buffer.
@_cdecl("pbg_stack_load")
public func pbg_stack_load(_ h: UInt64, _ game: Int64, _ data: UnsafePointer<UInt8>?, _ len: Int64) -> Int32 {
    abiCall { () throws(ABIError) in
        try Registry.with(h) { s throws(ABIError) in
            let i = try s.checkGame(game, "stack_load")
            try s.loadStack(i, from: inputBytes(data, len, what: "stack_load"))
        }
    }
}
