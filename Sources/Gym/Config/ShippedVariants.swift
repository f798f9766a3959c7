/// The variant files shipped in `Configs/variants/` (a test keeps each
/// equal to its file byte for byte), so the library, the C ABI and Python
/// name a shipped set ("train", "near", "far") without a path.
public enum ShippedVariants {
    /// The text of `Configs/variants/<game>.json`, nil for a game without one.
    public static func text(game: String) -> String? {
        switch game {
        case "pong": pong
        case "breakout": breakout
        default: nil
        }
    }

    /// `Configs/variants/pong.json`.
    public static let pong = #"""
{
  "game": "pong",
  "version": 1,
  "preset": "classic",
  "sets": {
    "train": {
      "sampling": "uniform",
      "ranges": {
        "paddleWidth": [48, 80],
        "paddleSpeed": [4.5, 7.5],
        "serveSpeed": [1.5, 2.5],
        "speedIncrement": [0.25, 0.75],
        "maxBallSpeed": [8, 12],
        "englishDivisor": [24, 40]
      }
    },
    "near": {
      "sampling": "uniform",
      "points": [
        { "name": "narrow-quick", "values": { "paddleWidth": 50, "serveSpeed": 2.4, "maxBallSpeed": 11.5 } },
        { "name": "wide-slow", "values": { "paddleWidth": 78, "paddleSpeed": 4.6, "serveSpeed": 1.6 } },
        { "name": "sharp-english", "values": { "englishDivisor": 25, "speedIncrement": 0.7 } },
        { "name": "soft-english", "values": { "englishDivisor": 39, "paddleSpeed": 7.4, "maxBallSpeed": 8.5 } },
        { "name": "narrow-nimble", "values": { "paddleWidth": 52, "paddleSpeed": 7, "speedIncrement": 0.3, "maxBallSpeed": 11 } }
      ]
    },
    "far": {
      "sampling": "uniform",
      "points": [
        { "name": "tiny-paddle", "values": { "paddleWidth": 32 } },
        { "name": "huge-paddle", "values": { "paddleWidth": 112 } },
        { "name": "slow-paddle", "values": { "paddleSpeed": 3 } },
        { "name": "fast-serve", "values": { "serveSpeed": 4, "maxBallSpeed": 16 } },
        { "name": "rapid-rally", "values": { "speedIncrement": 1.5, "maxBallSpeed": 16 } },
        { "name": "hard-english", "values": { "englishDivisor": 20 } }
      ]
    }
  },
  "sensitivity": {
    "paddleWidth": [32, 48, 64, 80, 112],
    "paddleSpeed": [3, 4.5, 6, 7.5, 9],
    "serveSpeed": [1, 1.5, 2, 2.5, 4],
    "speedIncrement": [0, 0.25, 0.5, 0.75, 1.5],
    "maxBallSpeed": [6, 8, 10, 12, 16],
    "englishDivisor": [20, 24, 32, 40, 64]
  }
}
"""#

    /// `Configs/variants/breakout.json`.
    public static let breakout = #"""
{
  "game": "breakout",
  "version": 1,
  "preset": "classic",
  "sets": {
    "train": {
      "sampling": "uniform",
      "ranges": {
        "paddleWidth": [40, 56],
        "paddleSpeed": [5, 7],
        "ballSpeed": [3.5, 4.5],
        "maxBallSpeed": [9, 11],
        "gravity": [0, 0.01],
        "elasticity": [0.95, 1.05]
      }
    },
    "near": {
      "sampling": "uniform",
      "points": [
        { "name": "narrow-quick", "values": { "paddleWidth": 41, "ballSpeed": 4.4, "maxBallSpeed": 10.8 } },
        { "name": "wide-slow", "values": { "paddleWidth": 55, "paddleSpeed": 5.2, "ballSpeed": 3.6 } },
        { "name": "heavy", "values": { "gravity": 0.009, "elasticity": 1.04 } },
        { "name": "dull-bounce", "values": { "elasticity": 0.96, "paddleSpeed": 6.8, "maxBallSpeed": 9.2 } },
        { "name": "narrow-nimble", "values": { "paddleWidth": 42, "paddleSpeed": 6.9, "gravity": 0.002 } }
      ]
    },
    "far": {
      "sampling": "uniform",
      "points": [
        { "name": "tiny-paddle", "values": { "paddleWidth": 24 } },
        { "name": "huge-paddle", "values": { "paddleWidth": 80 } },
        { "name": "slow-paddle", "values": { "paddleSpeed": 3 } },
        { "name": "fast-ball", "values": { "ballSpeed": 6, "maxBallSpeed": 14 } },
        { "name": "strong-gravity", "values": { "gravity": 0.02 } },
        { "name": "dead-bounce", "values": { "elasticity": 0.85 } }
      ]
    }
  },
  "sensitivity": {
    "paddleWidth": [24, 40, 48, 56, 80],
    "paddleSpeed": [3, 5, 6, 7, 9],
    "ballSpeed": [3, 3.5, 4, 4.5, 6],
    "maxBallSpeed": [8, 9, 10, 11, 14],
    "gravity": [0, 0.005, 0.01, 0.02],
    "elasticity": [0.85, 0.95, 1, 1.05, 1.15]
  }
}
"""#
}
