/// Turns key presses into one action per agent step for `play`.
///
/// Terminals report key presses, never releases, and a held key repeats
/// only after the keyboard's repeat delay. The rule: a direction key moves
/// the paddle for ``holdSteps`` steps from its press; each repeat of the
/// same key starts the count again (so a held key keeps moving it, with a
/// short stop before the keyboard starts repeating if the delay is longer
/// than the hold); another direction key takes over at once. A push (space)
/// is played once, on the next step, in place of the movement.
struct PaddleControl: Equatable {
    /// Steps a press lasts, at least 1.
    let holdSteps: Int
    private(set) var heldAction = 0
    private(set) var stepsLeft = 0
    private(set) var pushPending = false

    /// - Parameters:
    ///   - holdFrames: frames a press lasts (≥ 1);
    ///   - frameSkip: frames per agent step (the hold is rounded up to whole steps).
    init(holdFrames: Int, frameSkip: Int) {
        holdSteps = max(1, (holdFrames + max(1, frameSkip) - 1) / max(1, frameSkip))
    }

    /// A press of the key for `action` (a movement action of the game).
    mutating func press(_ action: Int) {
        heldAction = action
        stepsLeft = holdSteps
    }

    /// A press of the push key (`action` is the game's push action).
    mutating func pressPush() { pushPending = true }

    /// Forgets every press (a new game, a resumed one).
    mutating func clear() { self = PaddleControl(holdSteps: holdSteps) }

    /// The action for the next step, given the push action (nil if the game has none).
    mutating func nextAction(pushAction: Int?) -> Int {
        if pushPending, let pushAction {
            pushPending = false
            return pushAction
        }
        pushPending = false
        guard stepsLeft > 0 else { return 0 }
        stepsLeft -= 1
        return heldAction
    }

    private init(holdSteps: Int) { self.holdSteps = holdSteps }
}
