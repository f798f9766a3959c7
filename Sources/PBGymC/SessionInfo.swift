import Gym

/// What a caller asks an environment once: sizes, spaces, names.
extension Session {
    static let abiVersion: Int32 = 4

    /// The library's own description (``pbg_library_info``): codes and slot
    /// numbers in the order of their raw values.
    static var libraryInfo: JSONValue {
        .object([
            ("abi_version", .number(Int(abiVersion))),
            ("status_names", .array(ABIStatus.allCases.map { .string($0.name) })),
            ("slot_names", .array(Slot.allCases.map { .string("\($0)") })),
        ])
    }

    var info: JSONValue {
        let l = games.layout
        return .object([
            ("abi_version", .number(Int(Self.abiVersion))),
            ("game", .string(config.game.rawValue)),
            ("num_games", .number(count)),
            ("seats", .number(seats)),
            ("players", .number(config.players)),
            ("action_count", .number(games.actionCount)),
            ("obs_type", .string(config.obsType.rawValue)),
            ("obs_count", .number(obsCount)),
            ("layout_version", .number(l.version)),
            ("pixel_shape", .array([.number(config.pixelSize.height), .number(config.pixelSize.width)])),
            ("frame_stack", .number(config.frameStack)),
            ("channels_order", .string(config.channelsOrder.rawValue)),
            ("obs_shape", .array(observationShape.map { .number($0) })),
            ("action_names", .array(actionNames.map { .string($0) })),
            ("render_shape", .array([.number(games.renderSize.height), .number(games.renderSize.width)])),
            ("autoreset", .string(config.autoreset.description)),
            ("action_dtype", .string(config.actionDType.rawValue)),
            ("reward_dtype", .string(config.rewardDType.rawValue)),
            ("seed", .number(config.seed)),
            ("opponent", kind == 1 ? .string(config.opponent) : .null),
            ("agent_side", kind == 1 ? .string(config.agentSideTop ? "top" : "bottom") : .null),
            ("event_names", .array(games.eventNames.map { .string($0) })),
            ("score_names", .array(games.scoreNames.map { .string($0) })),
            ("end_names", .array(EpisodeEnd.allCases.map { .string($0.description) })),
            ("slot_names", .array(Slot.allCases.map { .string("\($0)") })),
            ("presets", .array(presetNames.map { .string($0) })),
            ("config", games.configJSON),
        ])
    }

    /// One seat's observation shape: features `[n]`; pixels `[H, W, k]`
    /// (channels last) or `[k, H, W]` (channels first), `k` the frame stack.
    var observationShape: [Int] {
        guard config.obsType == .pixels else { return [obsCount] }
        let h = config.pixelSize.height, w = config.pixelSize.width, k = config.frameStack
        return config.channelsOrder == .last ? [h, w, k] : [k, h, w]
    }

    /// The actions' names, by index, in the Arcade Learning Environment's
    /// words (its `getActionMeanings`): the game's action cases upper-cased.
    var actionNames: [String] {
        let names = config.game == .pong ? PongAction.allCases.map { "\($0)" } : BreakoutAction.allCases.map { "\($0)" }
        return names.prefix(games.actionCount).map { $0.uppercased() }
    }

    var presetNames: [String] {
        config.game == .pong ? PongConfig.presetNames : BreakoutConfig.presetNames
    }

    /// Game `i` as text: a status line, then the field in characters
    /// (two pixel rows per line, darker to brighter: ` .:+#@`).
    func ansi(_ i: Int, seat: Int) -> String {
        let w = 40
        let r = games.renderSize
        let h = max(2, Int((Double(w) * Double(r.height) / Double(r.width)).rounded()))
        let size = PixelObservation(width: w, height: h) ?? .atari
        var px = [UInt8](repeating: 0, count: size.byteCount)
        px.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            games.render(i, seat: seat, size: size, into: base)
        }
        let ramp: [Character] = [" ", ".", ":", "+", "#", "@"]
        var out = games.statusLine(i) + "\n"
        for y in stride(from: 0, to: h - 1, by: 2) {
            var line = "|"
            for x in 0 ..< w {
                let v = max(px[y * w + x], px[(y + 1) * w + x])
                line.append(ramp[v == 0 ? 0 : 1 + min(4, Int(v) / 52)])
            }
            out += line + "|\n"
        }
        return out
    }
}
