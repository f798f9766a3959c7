import Foundation
import Testing
@testable import Gym

/// Strict config decoding: every error path names the key, the value and
/// what is allowed.
@Suite struct PongConfigTests {
    func error(_ text: String) -> ConfigError? {
        do { _ = try PongConfig.decode(text, source: "test.json"); return nil } catch { return error }
    }

    @Test func emptyObjectIsTheClassicPreset() throws {
        #expect(try PongConfig.decode("{}", source: "t") == PongConfig())
        #expect(try PongConfig.decode(#"{"preset": "touch"}"#, source: "t") == PongConfig.preset("touch"))
    }

    /// `make run` and `make bench-train` play whole games on
    /// Configs/pong-games.json: the classic rules with only the step cap
    /// raised to 108 000 (the classic preset's own cap stays 30 000).
    @Test func shippedWholeGameConfigIsClassicWithTheLongerCap() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Configs/pong-games.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let games = try PongConfig.decode(text, source: "Configs/pong-games.json")
        var expected = PongConfig()
        #expect(expected.maxSteps == 30_000)
        expected.maxSteps = 108_000
        #expect(games == expected)
    }

    @Test func keysOverrideThePreset() throws {
        let c = try PongConfig.decode(#"{"preset": "fast", "paddleSpeed": 7.5, "maxScore": 5, "verticalMovement": true}"#, source: "t")
        #expect(c.paddleSpeed == 7.5 && c.maxScore == 5 && c.verticalMovement)
        #expect(c.serveSpeed == (try PongConfig.preset("fast")).serveSpeed)
    }

    @Test func writtenConfigReadsBackEqual() throws {
        for name in PongConfig.presetNames {
            let c = try PongConfig.preset(name)
            #expect(try PongConfig.decode(c.json.serialized(), source: name) == c)
            try c.validate()
        }
    }

    @Test func unknownKeyIsNamedWithTheValidOnes() {
        let e = error(#"{"paddleSped": 3}"#)
        guard case let .unknownKey(_, key, allowed) = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(key == "paddleSped")
        #expect(allowed.contains("paddleSpeed") && allowed.contains("preset"))
        #expect(e?.description.contains("unknown key \"paddleSped\"") == true)
    }

    @Test func outOfRangeValuesNameKeyValueAndRange() {
        let cases: [(String, String)] = [
            (#"{"paddleSpeed": 100}"#, "paddleSpeed"), (#"{"maxScore": 0}"#, "maxScore"),
            (#"{"stickyActionProbability": 1.5}"#, "stickyActionProbability"), (#"{"frameSkip": 17}"#, "frameSkip"),
            (#"{"ballSize": -1}"#, "ballSize"), (#"{"maxBallSpeed": 1e39}"#, "maxBallSpeed"),
        ]
        for (text, key) in cases {
            guard case let .outOfRange(_, k, _, allowed) = error(text) else { Issue.record("no range error for \(text)"); continue }
            #expect(k == key)
            #expect(allowed.contains("..."))
        }
        #expect(error(#"{"paddleSpeed": 100}"#)?.description == #"test.json: "paddleSpeed" = 100 is out of range; allowed: 0.5 ... 32"#)
    }

    @Test func wrongTypesAreRejected() {
        #expect(error(#"{"paddleSpeed": "fast"}"#) == .wrongType(source: "test.json", key: "paddleSpeed", expected: "a number", found: "a string"))
        #expect(error(#"{"maxScore": 2.5}"#) == .wrongType(source: "test.json", key: "maxScore", expected: "an integer", found: "2.5"))
        #expect(error(#"{"verticalMovement": 1}"#) == .wrongType(source: "test.json", key: "verticalMovement", expected: "true or false", found: "a number"))
        #expect(error(#"{"preset": 3}"#) == .wrongType(source: "test.json", key: "preset", expected: "a preset name", found: "a number"))
        #expect(error("[1, 2]") == .notAnObject(source: "test.json"))
    }

    @Test func unknownPresetListsThePresets() {
        #expect(error(#"{"preset": "turbo"}"#) == .unknownPreset(game: "pong", name: "turbo", allowed: PongConfig.presetNames))
    }

    @Test func malformedJSONSaysWhere() {
        guard case let .malformed(_, syntax) = error("{\n  \"paddleSpeed\": 3,\n  \"maxScore\": tru\n}") else {
            Issue.record("not reported as malformed"); return
        }
        #expect(syntax.line == 3 && syntax.column == 15)
        guard case let .malformed(_, dup) = error(#"{"maxScore": 3, "maxScore": 4}"#) else { Issue.record("duplicate key accepted"); return }
        #expect(dup.message.contains("duplicate key"))
        for bad in ["", "{", #"{"a" 1}"#, #"{"a": 1,}"#, "{} x", #"{"a": 01}"#, #"{"a": "\q"}"#] {
            guard case .malformed = error(bad) else { Issue.record("accepted malformed \(bad)"); continue }
        }
    }

    @Test func relationsBetweenFieldsAreChecked() {
        #expect(error(#"{"serveSpeed": 12, "maxBallSpeed": 10}"#)?.description.contains("maxBallSpeed") == true)
        #expect(error(#"{"paddleWidth": 256, "fieldWidth": 280}"#)?.description.contains("paddleWidth") == true)
        #expect(error(#"{"englishDivisor": 4}"#)?.description.contains("englishDivisor") == true)
        #expect(error(#"{"paddleInset": 200}"#)?.description.contains("paddleInset") == true)
        // A returned ball must outrun an advancing paddle (only with vertical movement).
        #expect(error(#"{"preset": "touch", "serveSpeed": 2, "maxBallSpeed": 4}"#)?.description
            == #"test.json: "paddleVerticalSpeed" = 4 must be below maxBallSpeed (4) with verticalMovement, so a returned ball outruns the paddle"#)
        #expect(error(#"{"maxBallSpeed": 4, "paddleVerticalSpeed": 8}"#) == nil)
    }

    @Test func configHashTracksEveryField() throws {
        let base = PongConfig()
        var changed = base
        changed.paddleWidth = 51.2
        #expect(base.configHash != changed.configHash)
        #expect(base.configHash == PongConfig().configHash)
    }
}

@Suite struct JSONValueTests {
    @Test func parsesAndWritesBack() throws {
        let text = #"{"a": [1, 2.5, -3e2], "b": {"c": true, "d": null}, "e": "x\"y\n\u00e9"}"#
        let v = try JSONValue.parse(text)
        #expect(v["a"] == .array([.number(1), .number(2.5), .number(-300)]))
        #expect(v["e"] == .string("x\"y\né"))
        #expect(try JSONValue.parse(v.serialized()) == v)
        #expect(try JSONValue.parse(v.serialized(pretty: false)) == v)
    }

    @Test func keepsLargeIntegersExactly() throws {
        guard case let .number(_, text) = try JSONValue.parse("18446744073709551615") else { Issue.record("not a number"); return }
        #expect(UInt64(text) == UInt64.max)
    }
}
