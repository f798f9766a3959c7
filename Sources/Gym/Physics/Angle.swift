/// Sine and cosine of config angles, computed once when a game is built.
///
/// The standard library has no trigonometry and the core stays free of
/// Foundation and libm, so these are Taylor series in `Double`, summed until
/// the terms vanish (exact to `Float` precision for |angle| ≤ 180°). Being
/// plain arithmetic, they give the same bits on every machine.
public enum Angle {
    /// `(sin, cos)` of `degrees`.
    public static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let x = degrees * (Double.pi / 180)
        var sinSum = 0.0, cosSum = 0.0
        var term = x                 // x^(2k+1) / (2k+1)!
        var cosTerm = 1.0            // x^(2k) / (2k)!
        for k in 0 ..< 40 {
            sinSum += term
            cosSum += cosTerm
            let a = Double(2 * k + 2), b = Double(2 * k + 3)
            cosTerm *= -x * x / ((a - 1) * a)
            term *= -x * x / (a * b)
        }
        return (sinSum, cosSum)
    }
}
