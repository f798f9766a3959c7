#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every external agent process alive, so that no exit of the gym leaves one
/// running: a normal exit or an error (`exit`, through ``installExitGuards()``'s
/// `atexit` handler) and SIGINT, SIGTERM, SIGHUP (its signal handlers) kill
/// them all with SIGKILL. An agent also sees its standard input close when
/// the gym dies of a signal that cannot be caught (SIGKILL), and the clients
/// of docs/agents.md exit then.
///
/// Inside another program's process (libpbgym loaded by Python, after
/// ``useEmbedded()``) no signal handler is installed and SIGPIPE is left as
/// the host has it: children are started by `agentspawn_start` (a process
/// group of their own, SIGKILLed by the kernel when the host dies, however
/// it dies) and ended by their owners (an environment's close) or the
/// `atexit` handler.
public enum AgentChildren {
    /// Most children alive at once (a slot of the table each).
    static let capacity = 4096
    /// The table of live child process ids (0: a free slot), read by the
    /// signal handlers without a lock (async-signal-safe: loads and `kill` only).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()
    static let lock = NSLock()
    nonisolated(unsafe) static var guardsInstalled = false
    /// Whether the gym is a library inside another program's process (``useEmbedded()``).
    nonisolated(unsafe) static var embedded = false
    /// The process whose children the table holds (a fork of the host's
    /// inherits the table and must not kill its parent's agents at exit).
    nonisolated(unsafe) static var owner: pid_t = 0

    /// Marks the gym as a library inside another program's process, before
    /// its first agent: the host's signal handling is never touched.
    public static func useEmbedded() {
        lock.lock()
        defer { lock.unlock() }
        embedded = true
    }

    /// Records `pid` (the caller holds ``lock``); false when the table is full.
    static func addLocked(_ pid: pid_t) -> Bool {
        if owner != getpid() {  // a fork's table holds its parent's children, not its own
            for k in 0 ..< capacity { table[k] = 0 }
            owner = getpid()
        }
        for k in 0 ..< capacity where table[k] == 0 {
            table[k] = pid
            return true
        }
        return false
    }

    static func remove(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        for k in 0 ..< capacity where table[k] == pid { table[k] = 0 }
    }

    /// SIGKILLs every live child (safe inside a signal handler).
    public static func killAll() {
        guard getpid() == owner else { return }
        for k in 0 ..< capacity where table[k] > 0 { kill(table[k], SIGKILL) }
    }

    /// Installs, once: an `atexit` handler (embedded: nothing more) and SIGINT, SIGTERM and SIGHUP
    /// handlers that kill every child (the signal handlers then restore the
    /// default action and raise the signal again, so the gym still dies of
    /// it); and ignores SIGPIPE (a write to an agent that exited fails with
    /// EPIPE instead of killing the gym). A program that later sets its own
    /// SIGINT/SIGTERM handling calls ``killAll()`` on its own exits.
    public static func installExitGuards() {
        lock.lock()
        defer { lock.unlock() }
        guard !guardsInstalled else { return }
        guardsInstalled = true
        _ = table
        owner = getpid()
        atexit { AgentChildren.killAll() }
        guard !embedded else { return }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started the gym with these blocked (they would
        // then never arrive); threads made from now on inherit this mask.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                AgentChildren.killAll()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
