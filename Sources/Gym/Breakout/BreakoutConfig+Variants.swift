extension BreakoutConfig: VariantConfig {
    /// Breakout's live rules: paddle size and speed, ball speeds, gravity,
    /// elasticity, balls per serve, lives and the special bricks' shares
    /// (see ``VariantConfig``). Brick rows and columns and `maxBalls` size
    /// the observation, so they are not variant keys.
    public static let variantKeys = [
        "paddleWidth", "paddleSpeed", "ballSpeed", "speedUpIncrement", "maxBallSpeed", "gravity", "elasticity",
        "ballsPerServe", "lives", "toughFraction", "explosiveFraction", "extraBallFraction", "speedUpFraction",
        "pushImpulse",
    ]
}
