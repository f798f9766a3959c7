#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AgentSpawn
import Foundation

/// Why talking to an agent process failed (turned into an ``AgentFault`` message).
enum AgentChildError: Error, Equatable {
    /// The program could not be started.
    case spawn(String)
    /// No reply within the time limit.
    case timeout(seconds: Double)
    /// The process closed its standard output (it exited or crashed: `how` says which).
    case exited(how: String)
    /// A system call failed.
    case io(String)
}

/// One agent process: its standard input and output are pipes to the gym,
/// its standard error a log file. Reads and writes wait at most until a
/// deadline (`poll`), so a hung agent is caught, never waited on forever.
final class AgentChild {
    let pid: pid_t
    /// The gym's ends of the pipes (non-blocking, close-on-exec).
    private var input: Int32, output: Int32
    let logPath: String
    private var status: Int32?

    /// Starts `file`'s command with standard error appended to `logPath`.
    init(_ file: ExternalAgentFile, logPath: String) throws(AgentChildError) {
        AgentChildren.installExitGuards()
        self.logPath = logPath
        // Pipes and spawn under one lock, so that no other agent process
        // started meanwhile inherits these pipes before they are close-on-exec.
        AgentChildren.lock.lock()
        defer { AgentChildren.lock.unlock() }
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw .io("pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw .io("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(toChild[0]); close(fromChild[1]); if log >= 0 { close(log) } }
        guard log >= 0 else {
            close(toChild[1]); close(fromChild[0])
            throw .spawn("cannot open its log \(logPath): \(String(cString: strerror(errno)))")
        }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in file.environment { environment[k] = v }
        let argv: (_ command: [String]) -> [UnsafeMutablePointer<CChar>?] = { $0.map { strdup($0) } + [nil] }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        var child: pid_t = 0
        let rc: Int32
        if AgentChildren.embedded {
            // Inside a host's process: agentspawn_start (AgentSpawn.h) enters
            // the directory itself and ties the child to the host's life.
            let args = argv(file.command)
            defer { for p in args { free(p) } }
            rc = agentspawn_start(args, envp, file.directory, toChild[0], fromChild[1], log, &child)
        } else {
            rc = Self.spawn(file, argv: argv, envp: envp, fds: (toChild[0], fromChild[1], log), pid: &child)
        }
        guard rc == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw .spawn("cannot start \(file.command[0]): \(String(cString: strerror(rc)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        guard AgentChildren.addLocked(child) else {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
            close(input); close(output)
            throw .spawn("too many agent processes at once (at most \(AgentChildren.capacity))")
        }
    }

    deinit { stop() }

    /// posix_spawn for gym-train, whose exit guards own the signals: the
    /// agent starts with no signal blocked and SIGPIPE, SIGINT, SIGTERM,
    /// SIGHUP at their defaults, whatever the gym's thread has. A working
    /// directory is entered by a POSIX shell that then execs the command
    /// (posix_spawn has no portable chdir); a missing program then shows as
    /// exit status 127 and the shell's message in the log.
    private static func spawn(_ file: ExternalAgentFile, argv: ([String]) -> [UnsafeMutablePointer<CChar>?],
                              envp: [UnsafeMutablePointer<CChar>?], fds: (Int32, Int32, Int32), pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds.0, 0)
        posix_spawn_file_actions_adddup2(&actions, fds.1, 1)
        posix_spawn_file_actions_adddup2(&actions, fds.2, 2)
        let command = file.directory.map { ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", $0] + file.command } ?? file.command
        let args = argv(command)
        defer { for p in args { free(p) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return posix_spawnp(&pid, command[0], &actions, &attributes, args, envp)
    }

    /// Milliseconds left until `deadline` (at least 0), for `poll`.
    private static func millisecondsLeft(_ deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - .now
        guard left > .zero else { return 0 }
        let c = left.components
        return Int32(clamping: c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Writes all of `bytes` before `deadline` (`limit` seconds from the start).
    func write(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant, limit: Double) throws(AgentChildError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            // Embedded: SIGPIPE is kept off the host's thread (the host's disposition stays its own).
            let n = AgentChildren.embedded ? agentspawn_write(input, base + done, bytes.count - done)
                : Glibc.write(input, base + done, bytes.count - done)
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var p = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&p, 1, Self.millisecondsLeft(deadline))
                if ready == 0 { throw .timeout(seconds: limit) }
                if ready < 0, errno != EINTR { throw .io("poll: \(String(cString: strerror(errno)))") }
                continue
            }
            if errno == EPIPE { throw .exited(how: exitDescription()) }
            throw .io("write: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads exactly `count` bytes into `buffer` before `deadline`.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, deadline: ContinuousClock.Instant,
              limit: Double) throws(AgentChildError) {
        var done = 0
        while done < count {
            let n = Glibc.read(output, buffer + done, count - done)
            if n > 0 { done += n; continue }
            if n == 0 { throw .exited(how: exitDescription()) }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw .io("read: \(String(cString: strerror(errno)))") }
            var p = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Self.millisecondsLeft(deadline))
            if ready == 0 { throw .timeout(seconds: limit) }
            if ready < 0, errno != EINTR { throw .io("poll: \(String(cString: strerror(errno)))") }
        }
    }

    /// How the process ended ("exited with status 3", "killed by signal 6 (SIGABRT)"),
    /// waiting for it up to a second after its output closed.
    func exitDescription() -> String {
        if status == nil {
            for _ in 0 ..< 100 {
                var s: Int32 = 0
                if waitpid(pid, &s, WNOHANG) == pid { status = s; AgentChildren.remove(pid); break }
                usleep(10000)
            }
        }
        guard let s = status else { return "closed its standard output" }
        let signal = s & 0x7F
        if signal == 0 { return "exited with status \((s >> 8) & 0xFF)" }
        let names: [Int32: String] = [SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
                                      SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGINT: "SIGINT"]
        return "killed by signal \(signal)\(names[signal].map { " (\($0))" } ?? "")"
    }

    /// Closes its standard input and gives it `seconds` to exit, then kills it;
    /// reaps it either way. Returns its exit status when it exited by itself.
    @discardableResult
    func finish(seconds: Double) -> Int32? {
        guard input >= 0 else { return status.map { ($0 >> 8) & 0xFF } }
        close(input); input = -1
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while status == nil, ContinuousClock.now < deadline {
            var s: Int32 = 0
            if waitpid(pid, &s, WNOHANG) == pid { status = s; break }
            usleep(2000)
        }
        let exitedAlone = status != nil
        stop()
        guard exitedAlone, let s = status, s & 0x7F == 0 else { return nil }
        return (s >> 8) & 0xFF
    }

    /// Kills the process if it still runs, reaps it, closes the pipes.
    func stop() {
        if status == nil {
            kill(pid, SIGKILL)
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0, errno == EINTR {}
            status = s
        }
        AgentChildren.remove(pid)
        if input >= 0 { close(input); input = -1 }
        if output >= 0 { close(output); output = -1 }
    }

    /// The last `lines` lines of its standard error log.
    func stderrTail(lines: Int = 8) -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "" }
        let tail = data.suffix(4096)
        let text = String(decoding: tail, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(lines).joined(separator: "\n")
    }
}
