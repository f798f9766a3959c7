import Foundation
import Testing
@testable import Gym

/// Strict Breakout config decoding: every error path names the key, the
/// value and what is allowed; every relation between keys is checked.
@Suite struct BreakoutConfigTests {
    func error(_ text: String) -> ConfigError? {
        do { _ = try BreakoutConfig.decode(text, source: "b.json"); return nil } catch { return error }
    }

    /// The key named by an `.invalid` error, and its message.
    func invalid(_ text: String) -> (key: String, message: String)? {
        guard case let .invalid(_, key, message) = error(text) else { return nil }
        return (key, message)
    }

    @Test func presetsAreValidAndRoundTrip() throws {
        #expect(BreakoutConfig.presetNames == ["classic", "atari", "ale"])
        for name in BreakoutConfig.presetNames {
            let c = try BreakoutConfig.preset(name)
            try c.validate()
            #expect(try BreakoutConfig.decode(c.json.serialized(), source: name) == c)
        }
        #expect(try BreakoutConfig.decode("{}", source: "t") == BreakoutConfig())
    }

    @Test func atariPresetIsTheFamiliarGame() throws {
        let a = try BreakoutConfig.preset("atari")
        #expect(a.brickRows == 6 && a.brickColumns == 18)
        #expect(a.rowValues == [1, 1, 4, 4, 7, 7])
        #expect(a.lives == 5 && a.levels == 2)
        #expect(a.speedUpAfterHits == [4, 12] && a.speedUpRows == 2 && a.shrinkPaddleOnTopWall)
        #expect(a.gravity == 0)
        let c = BreakoutConfig()
        #expect(c.gravity == 0)
        #expect(c.toughFraction + c.explosiveFraction + c.extraBallFraction + c.speedUpFraction > 0)
    }

    /// `ale` is `atari` played as ALE v5 plays Breakout: frame skip 4,
    /// sticky actions 0.25, 108 000 frames per episode at most.
    @Test func alePresetIsAtariUnderALEv5Conventions() throws {
        let a = try BreakoutConfig.preset("atari"), ale = try BreakoutConfig.preset("ale")
        #expect(ale.frameSkip == 4 && ale.stickyActionProbability == 0.25)
        #expect(ale.maxSteps * ale.frameSkip == 108_000)
        var same = ale
        same.frameSkip = a.frameSkip
        same.stickyActionProbability = a.stickyActionProbability
        same.maxSteps = a.maxSteps
        #expect(same == a)
    }

    @Test func shippedConfigFileIsTheClassicPreset() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Configs/breakout.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(try BreakoutConfig.decode(text, source: "Configs/breakout.json") == BreakoutConfig())
    }

    @Test func listsAndLayoutsDecode() throws {
        let c = try BreakoutConfig.decode(#"""
        {"brickRows": 2, "brickColumns": 4, "rowValues": [3, 5], "speedUpAfterHits": [2, 9],
         "layout": ["T.XB", "S##."]}
        """#, source: "t")
        #expect(c.rowValues == [3, 5] && c.speedUpAfterHits == [2, 9] && c.layout == ["T.XB", "S##."])
    }

    @Test func unknownKeyAndWrongTypes() {
        guard case let .unknownKey(_, key, allowed) = error(#"{"gravty": 0.1}"#) else { Issue.record("no unknown-key error"); return }
        #expect(key == "gravty" && allowed.contains("gravity"))
        #expect(error(#"{"lives": 2.5}"#) == .wrongType(source: "b.json", key: "lives", expected: "an integer", found: "2.5"))
        #expect(error(#"{"autoServe": "yes"}"#) == .wrongType(source: "b.json", key: "autoServe", expected: "true or false", found: "a string"))
        #expect(error(#"{"rowValues": 3}"#) == .wrongType(source: "b.json", key: "rowValues", expected: "a list of integers", found: "a number"))
        #expect(error(#"{"rowValues": [1, "x", 1, 1, 1]}"#) == .wrongType(source: "b.json", key: "rowValues", expected: "a list of integers", found: "an element that is a string"))
        #expect(error("{\"layout\": \"####\"}") == .wrongType(source: "b.json", key: "layout", expected: "an array of strings", found: "a string"))
        #expect(error(#"{"layout": [1]}"#) == .wrongType(source: "b.json", key: "layout", expected: "an array of strings", found: "an element that is a number"))
        #expect(error(#"{"preset": "pong"}"#) == .unknownPreset(game: "breakout", name: "pong", allowed: ["classic", "atari", "ale"]))
    }

    @Test func everyNumberIsRangeChecked() {
        let cases: [(String, String)] = [
            ("fieldWidth", "100"), ("fieldHeight", "2000"), ("brickRows", "0"), ("brickRows", "17"),
            ("brickColumns", "33"), ("brickHeight", "2"), ("wallTopGap", "-1"), ("toughFraction", "1.5"),
            ("explosiveFraction", "-0.1"), ("extraBallFraction", "2"), ("speedUpFraction", "-1"),
            ("toughHits", "1"), ("toughHits", "8"), ("lives", "0"), ("levels", "100"), ("ballsPerServe", "9"),
            ("maxBalls", "0"), ("serveDelay", "601"), ("gravity", "0.3"), ("elasticity", "0.4"), ("elasticity", "1.3"),
            ("paddleWidth", "300"), ("paddleHeight", "1"), ("paddleInset", "4"), ("paddleSpeed", "25"),
            ("ballSize", "1"), ("ballSpeed", "0.5"), ("speedUpIncrement", "5"), ("speedUpRows", "17"),
            ("maxBallSpeed", "25"), ("minBounceAngle", "5"), ("minBounceAngle", "61"), ("pushImpulse", "9"),
            ("pushCooldown", "-1"), ("maxSteps", "-1"), ("watchdogSteps", "2000000"), ("frameSkip", "0"),
            ("stickyActionProbability", "1.01"),
        ]
        for (key, value) in cases {
            guard case let .outOfRange(_, k, v, allowed) = error("{\"\(key)\": \(value)}") else {
                Issue.record("no range error for \(key) = \(value)"); continue
            }
            #expect(k == key && v == value && allowed.contains("..."), "\(key)")
        }
        #expect(error(#"{"gravity": 0.3}"#)?.description == #"b.json: "gravity" = 0.3 is out of range; allowed: 0 ... 0.25"#)
        // Lists: element range and length.
        guard case .outOfRange(_, "rowValues", "-1", _) = error(#"{"rowValues": [1, 1, 2, 2, -1]}"#) else { Issue.record("rowValues element"); return }
        guard case .outOfRange(_, "speedUpAfterHits", "9 entries", _) = error(#"{"speedUpAfterHits": [1,2,3,4,5,6,7,8,9]}"#) else {
            Issue.record("speedUpAfterHits length"); return
        }
        guard case .outOfRange(_, "speedUpAfterHits", "0", _) = error(#"{"speedUpAfterHits": [0]}"#) else { Issue.record("threshold 0"); return }
    }

    @Test func layoutWithAnUnknownCharacterIsRejected() {
        let e = error("{\"brickRows\": 2, \"rowValues\": [1, 1], \"layout\": [\"##########\", \"###Z######\"]}")
        #expect(e?.description == "b.json: \"layout\" row 2 (\"###Z######\") has the unknown character \"Z\" at column 4; allowed: . # T X B S")
    }

    @Test func layoutWithTheWrongWidthIsRejected() {
        let e = error("{\"brickRows\": 2, \"rowValues\": [1, 1], \"layout\": [\"##########\", \"#########\"]}")
        #expect(e?.description == "b.json: \"layout\" row 2 (\"#########\") has 9 characters; every row needs brickColumns = 10")
    }

    @Test func layoutWithTheWrongRowCountOrNoBricksIsRejected() {
        #expect(invalid("{\"layout\": [\"##########\"]}")?.message.contains("needs brickRows = 5 rows") == true)
        #expect(invalid(#"{"brickRows": 1, "rowValues": [1], "layout": [".........."]}"#)?.message.contains("has no bricks") == true)
        guard case .outOfRange(_, "layout", _, _) = error("{\"layout\": [\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\",\"#\"]}") else {
            Issue.record("17 layout rows accepted"); return
        }
    }

    @Test func relationsBetweenKeysAreChecked() {
        let cases: [(String, String, String)] = [
            (#"{"brickRows": 4}"#, "rowValues", "needs one per brick row"),
            (#"{"toughFraction": 0.5, "explosiveFraction": 0.3, "extraBallFraction": 0.2, "speedUpFraction": 0.1}"#, "speedUpFraction", "at most 1"),
            (#"{"ballsPerServe": 4, "maxBalls": 3}"#, "ballsPerServe", "exceeds maxBalls"),
            (#"{"ballSpeed": 8, "maxBallSpeed": 6}"#, "maxBallSpeed", "at least ballSpeed"),
            (#"{"speedUpAfterHits": [5, 5]}"#, "speedUpAfterHits", "strictly ascending"),
            (#"{"speedUpRows": 6}"#, "speedUpRows", "exceeds brickRows"),
            (#"{"ballSize": 16}"#, "ballSize", "below the brick height"),
            (#"{"brickColumns": 32, "ballSize": 12, "brickHeight": 20}"#, "ballSize", "below the brick height"),
            (#"{"wallTopGap": 8}"#, "wallTopGap", "too narrow"),
            (#"{"paddleWidth": 200}"#, "paddleWidth", "at most fieldWidth / 2"),
            (#"{"brickRows": 16, "rowValues": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "brickHeight": 24}"#, "brickRows", "between paddle and wall"),
            (#"{"gravity": 0.1}"#, "gravity", "too strong"),
        ]
        for (text, key, fragment) in cases {
            guard let e = invalid(text) else { Issue.record("no relation error for \(text)"); continue }
            #expect(e.key == key, "\(text)")
            #expect(e.message.contains(fragment), "\(text): \(e.message)")
        }
        // Gravity is fine when the serve is fast enough to reach the wall.
        #expect(error(#"{"gravity": 0.1, "ballSpeed": 9}"#) == nil)
    }

    @Test func configHashTellsConfigsApart() throws {
        #expect(BreakoutConfig().configHash != (try BreakoutConfig.preset("atari")).configHash)
        var c = BreakoutConfig()
        c.layout = ["##########", "##########", "TTTTTTTTTT", "XXXXXXXXXX", "BBBBBSSSSS"]
        #expect(c.configHash != BreakoutConfig().configHash)
    }
}
