import Gym

extension PongConfig {
    /// Short Pong games (first to 2 points) in both frame settings the
    /// batch's paths tell apart: one frame per step, and frame skip 4 with
    /// sticky actions (probability 0.25, drawn lane-wise), each with a label
    /// for messages.
    static func shortPlainAndSticky() -> [(label: String, config: PongConfig)] {
        var plain = PongConfig()
        plain.maxScore = 2
        var sticky = plain
        sticky.frameSkip = 4
        sticky.stickyActionProbability = 0.25
        return [("plain", plain), ("sticky", sticky)]
    }
}
