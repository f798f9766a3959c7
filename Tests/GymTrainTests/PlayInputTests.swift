import Testing
@testable import gym_train

/// The key decoding and the press-to-step rule of `play`, without a terminal.
struct PlayInputTests {
    static let bytes = Array("d\u{1B}[Da\u{1B}OCx w p.s q\u{1A}\u{03}\u{1B}[1;5A".utf8)
    static let keys: [PlayKey] = [.right, .left, .left, .right, .down, .push, .up, .push, .pause, .tick, .save, .push,
                                  .quit, .suspend, .quit, .up]

    @Test func keysDoNotDependOnHowTheBytesWereSplit() {
        var whole = KeyReader()
        #expect(whole.feed(Self.bytes) == Self.keys)
        for cut in 1 ..< Self.bytes.count {
            var split = KeyReader()
            let keys = split.feed(Self.bytes[..<cut]) + split.feed(Self.bytes[cut...])
            #expect(keys == Self.keys, "split at byte \(cut)")
        }
    }

    @Test func aLoneEscapeIsDroppedAtTheNextKey() {
        var reader = KeyReader()
        #expect(reader.feed(Array("\u{1B}d".utf8)) == [.right])
    }

    @Test func aPressLastsTheHoldAndAnotherKeyTakesOver() {
        var control = PaddleControl(holdFrames: 5, frameSkip: 2)   // 3 steps
        #expect(control.holdSteps == 3)
        control.press(2)
        var actions = (0 ..< 2).map { _ in control.nextAction(pushAction: nil) }
        control.press(1)
        actions += (0 ..< 4).map { _ in control.nextAction(pushAction: nil) }
        #expect(actions == [2, 2, 1, 1, 1, 0])
    }

    @Test func aRepeatRestartsTheHoldAndAPushReplacesOneStep() {
        var control = PaddleControl(holdFrames: 2, frameSkip: 1)
        control.press(2)
        var actions = [control.nextAction(pushAction: 3)]
        control.press(2)
        control.pressPush()
        actions += (0 ..< 4).map { _ in control.nextAction(pushAction: 3) }
        #expect(actions == [2, 3, 2, 2, 0])
        control.pressPush()
        #expect(control.nextAction(pushAction: nil) == 0, "no push in a game without one")
    }
}
