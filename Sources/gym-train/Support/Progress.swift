import Foundation

/// Progress lines on stderr while long work runs (never in a result file):
/// units done of the total, the rate of this process and the time left, e.g.
/// `tournament 120/400 games (30%), 42.5 games/s, 6.6 s left`.
///
/// Shown when stderr is a terminal (one line redrawn in place, at most every
/// 0.5 s) and `CI` is unset; `GYM_TRAIN_PROGRESS=1` asks for them anywhere
/// (a log file gets a full line at most every 10 s), `GYM_TRAIN_PROGRESS=0`
/// silences them. Safe to tick from workers.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let label: String
    private let unit: String
    /// How lines are drawn: nil for none.
    private let style: Style?
    /// Units done, those done before this process started (a resumed run's) included.
    private(set) var done: Int
    private let doneAtStart: Int
    private var lastDraw: Double = -.infinity
    private let start = ContinuousClock.now

    enum Style: Equatable {
        /// One line redrawn in place (`\r`), every 0.5 s at most.
        case terminal
        /// Whole lines, every 10 s at most.
        case log

        var interval: Double { self == .terminal ? 0.5 : 10 }
    }

    /// - Parameters:
    ///   - done: units finished before this process started (a resumed run's recorded games).
    ///   - style: how to draw; by default ``defaultStyle``.
    init(total: Int, done: Int = 0, label: String, unit: String = "games", style: Style?? = nil) {
        self.total = total
        self.done = done
        doneAtStart = done
        self.label = label
        self.unit = unit
        self.style = style ?? Self.defaultStyle(environment: ProcessInfo.processInfo.environment,
                                                stderrIsTerminal: isatty(STDERR_FILENO) != 0)
    }

    /// The style a process uses (see the type's rules).
    static func defaultStyle(environment: [String: String], stderrIsTerminal: Bool) -> Style? {
        switch environment["GYM_TRAIN_PROGRESS"] {
        case "0": return nil
        case "1": return stderrIsTerminal ? .terminal : .log
        default: return stderrIsTerminal && environment["CI"] == nil ? .terminal : nil
        }
    }

    /// One progress line: `label done/total unit (p%), rate unit/s, time left`.
    /// The rate is of the units done in `elapsed` seconds by this process
    /// (`doneHere`); the time left is the remaining units at that rate.
    static func line(label: String, unit: String, done: Int, total: Int, doneHere: Int, elapsed: Double) -> String {
        let percent = total > 0 ? Int((Double(done) / Double(total) * 100).rounded(.down)) : 100
        var text = "\(label) \(done)/\(total) \(unit) (\(percent)%)"
        guard doneHere > 0, elapsed > 0 else { return text + ", rate not known yet" }
        let rate = Double(doneHere) / elapsed
        text += ", " + (rate >= 100 ? String(format: "%.0f", rate) : String(format: "%.1f", rate)) + " \(unit)/s"
        return text + ", " + (done >= total ? "done" : duration(Double(total - done) / rate) + " left")
    }

    /// 6.6 s, 4 min 05 s, 2 h 03 min.
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let s = Int(seconds.rounded())
        if s < 3600 { return String(format: "%d min %02d s", s / 60, s % 60) }
        return String(format: "%d h %02d min", s / 3600, (s % 3600) / 60)
    }

    /// Marks one unit done.
    func tick() {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        guard let style else { return }
        let elapsed = (ContinuousClock.now - start).seconds
        guard elapsed - lastDraw >= style.interval || done == total else { return }
        lastDraw = elapsed
        let text = Self.line(label: label, unit: unit, done: done, total: total, doneHere: done - doneAtStart,
                             elapsed: elapsed)
        write(style == .terminal ? "\r\(text)\u{1B}[K" : text + "\n")
    }

    /// Sets an explicit status (for work that is not counted in units).
    func status(_ text: String) {
        guard let style else { return }
        lock.lock()
        defer { lock.unlock() }
        let elapsed = (ContinuousClock.now - start).seconds
        guard style == .terminal || elapsed - lastDraw >= style.interval else { return }
        lastDraw = elapsed
        write(style == .terminal ? "\r\(label) \(text)\u{1B}[K" : "\(label) \(text)\n")
    }

    /// Clears the line.
    func finish() {
        guard style == .terminal else { return }
        write("\r\u{1B}[K")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
