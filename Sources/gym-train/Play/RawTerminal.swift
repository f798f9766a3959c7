import Foundation
import Synchronization

/// The terminal in raw mode for `play`: keys arrive one by one without echo,
/// the game is drawn on the alternate screen with the cursor hidden, and the
/// terminal is put back however the program ends.
///
/// Restoring is idempotent and async-signal-safe (`tcsetattr` and `write`
/// only), so it runs from ``restore()`` on the normal path, from an
/// `atexit` handler (an error thrown out of the command, `exit`), and from
/// the handlers of fatal signals (a trap, an abort), which then re-raise the
/// signal with its default action.
///
/// Signals that end a game in a way the player did not choose are turned
/// into a pending ``Interruption`` that the game loop polls: SIGTSTP
/// (suspend, Ctrl-Z from another terminal or `kill -TSTP`), SIGHUP (the
/// terminal went away) and SIGTERM save the game; SIGINT quits. SIGCONT
/// (after a SIGSTOP, which cannot be caught) and SIGWINCH ask for raw mode
/// and a full redraw again. Every caught signal also writes a byte to a
/// pipe the loop polls next to standard input, so a blocked `poll` wakes up
/// whichever thread the signal was delivered to.
enum RawTerminal {
    /// Why the game loop was interrupted by a signal.
    enum Interruption: Equatable {
        /// Save the game and quit (SIGTSTP, SIGHUP, SIGTERM).
        case save(signal: Int32)
        /// Quit without saving (SIGINT).
        case quit
        /// Re-enter raw mode and redraw (SIGCONT, SIGWINCH).
        case redraw
    }

    /// Whether both standard input and standard output are terminals.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The read end of the signal wake-up pipe (poll it for input), or -1
    /// before ``enter()``.
    static var wakeDescriptor: Int32 { wakePipe.read }

    /// Puts standard input in raw mode (no echo, no line buffering, no
    /// signal keys: Ctrl-C and Ctrl-Z arrive as bytes 3 and 26), switches to
    /// the alternate screen, hides the cursor and installs the handlers.
    /// - Throws: ``CLIError`` when the terminal's modes cannot be read or set.
    static func enter() throws {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw CLIError("cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        saved.pointee = original
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            wakePipe = (fds[0], fds[1])
        }
        installHandlers()
        atexit { RawTerminal.restoreNow() }
        guard applyRaw() else {
            throw CLIError("cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
        }
        active.store(1, ordering: .sequentiallyConsistent)
        writeAll("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Puts the terminal back (modes, main screen, cursor); safe to call twice.
    static func restore() { restoreNow() }

    /// Raw mode again after the process was stopped and continued (the shell
    /// restores its own modes meanwhile).
    static func reapply() {
        guard active.load(ordering: .sequentiallyConsistent) == 1 else { return }
        _ = applyRaw()
        writeAll("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// The pending interruption, if a signal arrived since the last call.
    static func takeInterruption() -> Interruption? {
        var byte: UInt8 = 0
        while read(wakePipe.read, &byte, 1) == 1 {}
        let sig = pending.exchange(0, ordering: .sequentiallyConsistent)
        switch sig {
        case 0: return nil
        case SIGINT: return .quit
        case SIGCONT, SIGWINCH: return .redraw
        default: return .save(signal: sig)
        }
    }

    /// The terminal's size in character cells (80 × 24 when unknown).
    static var size: (columns: Int, rows: Int) {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return (80, 24) }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    // MARK: - State shared with signal handlers

    /// The modes to restore (written once, before any handler can run).
    private nonisolated(unsafe) static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// 1 while raw mode is on (restoring sets it back to 0 first, so it runs once).
    private static let active = Atomic<Int32>(0)
    /// The last signal caught and not yet taken (0: none).
    private static let pending = Atomic<Int32>(0)
    private nonisolated(unsafe) static var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    /// Leave the alternate screen, show the cursor (bytes kept outside Swift
    /// arrays so the signal handler touches no reference counts).
    private nonisolated(unsafe) static let restoreBytes: UnsafeMutableBufferPointer<UInt8> = {
        let text = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = buffer.initialize(from: text)
        return buffer
    }()

    /// Signals that end the process abnormally (traps, aborts, crashes).
    private static let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGQUIT]
    /// The handlers the fatal-signal handler hands over to, indexed by signal number.
    private static let previousCount: Int32 = 64
    private nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(previousCount))
        p.initialize(repeating: sigaction(), count: Int(previousCount))
        return p
    }()

    private static func applyRaw() -> Bool {
        var raw = saved.pointee
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        // Output processing stays on, so "\n" still returns the carriage.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0
    }

    private static func restoreNow() {
        guard active.exchange(0, ordering: .sequentiallyConsistent) == 1 else { return }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
        _ = write(STDOUT_FILENO, restoreBytes.baseAddress, restoreBytes.count)
    }

    private static func writeAll(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func installHandlers() {
        // A parent may have started us with these blocked (a test runner's thread does): take them back.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGTSTP, SIGHUP, SIGTERM, SIGINT, SIGCONT, SIGWINCH] + fatalSignals { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for sig in [SIGTSTP, SIGHUP, SIGTERM, SIGINT, SIGCONT, SIGWINCH] {
            var action = sigaction()
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            setHandler(&action) { sig in
                RawTerminal.pending.store(sig, ordering: .sequentiallyConsistent)
                var byte: UInt8 = 1
                _ = write(RawTerminal.wakePipe.write, &byte, 1)
            }
            sigaction(sig, &action, nil)
        }
        for sig in fatalSignals {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            setHandler(&action) { sig in
                RawTerminal.restoreNow()
                // The previous handler (the Swift runtime's backtracer, or the default action) takes it from here.
                if sig >= 0, sig < RawTerminal.previousCount { sigaction(sig, RawTerminal.previous + Int(sig), nil) }
                raise(sig)
            }
            if sig < previousCount { sigaction(sig, &action, previous + Int(sig)) }
        }
    }

    private static func setHandler(_ action: inout sigaction, _ handler: @convention(c) (Int32) -> Void) {
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #else
        action.__sigaction_handler.sa_handler = handler
        #endif
    }
}
