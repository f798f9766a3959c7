import Gym

/// Game `game`'s rules in its running episode as JSON text,
/// `{"set": NAME, "values": {KEY: VALUE, ...}}` (the values of the set's
/// keys), for an environment created with `variants`; `invalidArgument`
/// for one without.
@_cdecl("pbg_rules")
public func pbg_rules(_ h: UInt64, _ game: Int64, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int64,
                      _ needed: UnsafeMutablePointer<Int64>?) -> Int32 {
    abiCall { () throws(ABIError) in
        let text = try Registry.with(h) { s throws(ABIError) -> String in
            let i = try s.checkGame(game, "rules")
            guard let r = s.games as? any RulesReporting else {
                throw ABIError(.invalidArgument, "rules: this environment plays one config throughout (create it with \"variants\" for per-episode rules)")
            }
            return r.rulesJSON(i)
        }
        try copyText(text, buf, cap, needed, what: "rules")
    }
}
