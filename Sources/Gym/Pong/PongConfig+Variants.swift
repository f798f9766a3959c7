extension PongConfig: VariantConfig {
    /// Pong's live rules: paddle size and speeds, serve and top ball speed,
    /// the speed-up per hit and the english (see ``VariantConfig``).
    public static let variantKeys = [
        "paddleWidth", "paddleSpeed", "paddleVerticalSpeed", "serveSpeed", "speedIncrement", "maxBallSpeed",
        "englishDivisor",
    ]
}
