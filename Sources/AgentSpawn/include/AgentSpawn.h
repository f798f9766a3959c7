#ifndef PBGYM_AGENT_SPAWN_H
#define PBGYM_AGENT_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/// Starts an external agent for a library loaded into someone else's
/// process (libpbgym in Python), where no signal handler may be installed:
///
/// - the child is forked by one thread this library starts once and never
///   ends, and asks the kernel for SIGKILL when that thread's process dies
///   (Linux `PR_SET_PDEATHSIG`; the signal follows the death of the forking
///   *thread*, hence the long-lived one), so no exit of the host, even
///   SIGKILL, leaves the agent running;
/// - the child leads a process group of its own, so a Ctrl-C at the
///   terminal interrupts the host (KeyboardInterrupt) and not its agents;
///   the host ends them when it closes its environments or exits;
/// - the child starts with no signal blocked, and SIGPIPE, SIGINT, SIGTERM,
///   SIGHUP and SIGQUIT at their defaults (a host may ignore them);
/// - `stdin_fd`, `stdout_fd` and `stderr_fd` become its 0, 1 and 2;
///   `directory` (or NULL) is entered; `argv[0]` is looked up on `PATH`.
///
/// Returns 0 and the child's process id in `pid`, or an errno value (the
/// fork's, or the child's chdir/exec failure, reported back through a
/// close-on-exec pipe) with nothing left running.
int agentspawn_start(char *const argv[], char *const envp[], const char *directory,
                     int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid);

/// write(2) to a pipe without SIGPIPE reaching the host when the reader is
/// gone: SIGPIPE is blocked on the calling thread for the call and a
/// SIGPIPE it raised is taken off the thread again (the host's disposition
/// is never changed). Returns write's result; errno as write sets it (EPIPE
/// when the agent's end is closed).
ssize_t agentspawn_write(int fd, const void *bytes, size_t count);

#endif
