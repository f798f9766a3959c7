// The fork/exec of agentspawn_start and its spawner thread (AgentSpawn.h).
// Between fork and exec the child calls only async-signal-safe functions:
// everything it needs is prepared by the caller before the fork.

#define _GNU_SOURCE
#include "AgentSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#else
extern char **environ;
#endif

// One request to the spawner thread, answered in place.
struct request {
    char *const *argv;
    char *const *envp;
    const char *directory;
    int fds[3];
    pid_t pid;
    int error;
    int done;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER, answered = PTHREAD_COND_INITIALIZER;
static struct request *pending;
// The process whose spawner thread runs (0: none yet). A child made by the
// host's own fork() (Python's os.fork) has no spawner thread: it starts one.
static pid_t spawner_of;
static pthread_once_t registered = PTHREAD_ONCE_INIT;

// The child's side: never returns.
static void child(struct request *r, pid_t parent, int report) {
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before the line above
#endif
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    int defaults[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t k = 0; k < sizeof defaults / sizeof defaults[0]; k++) sigaction(defaults[k], &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    // Move the three descriptors above 2 first, so that one dup2 cannot
    // overwrite a descriptor another still needs.
    int moved[3];
    for (int k = 0; k < 3; k++) {
        moved[k] = fcntl(r->fds[k], F_DUPFD_CLOEXEC, 3);
        if (moved[k] < 0) goto fail;
    }
    for (int k = 0; k < 3; k++) {
        if (dup2(moved[k], k) < 0) goto fail;
    }
    if (r->directory && chdir(r->directory) != 0) goto fail;
#if defined(__linux__)
    execvpe(r->argv[0], r->argv, r->envp);
#else
    environ = (char **)r->envp;
    execvp(r->argv[0], r->argv);
#endif
fail:;
    int e = errno;
    ssize_t ignored = write(report, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

static void run(struct request *r) {
    int report[2];
    if (pipe(report) != 0) { r->error = errno; return; }
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) child(r, parent, report[1]);
    close(report[1]);
    if (pid < 0) {
        r->error = errno;
        close(report[0]);
        return;
    }
    // exec closes the report pipe (close-on-exec): end of file means started.
    int e = 0;
    ssize_t n;
    do { n = read(report[0], &e, sizeof e); } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        r->error = e ? e : ECHILD;
        return;
    }
    r->pid = pid;
}

// Forks without holding `lock`, so the fork handlers below may take it.
static void *spawner(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!pending) pthread_cond_wait(&posted, &lock);
        struct request *r = pending;
        pthread_mutex_unlock(&lock);
        run(r);
        pthread_mutex_lock(&lock);
        pending = NULL;
        r->done = 1;
        pthread_cond_broadcast(&answered);
    }
    return NULL;
}

// A fork of the host's (or the spawner's own) happens with `lock` free and
// held by the forking thread, so the child's copy is consistent; the child
// has no spawner thread and starts its own when it needs one.
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork_parent(void) { pthread_mutex_unlock(&lock); }
static void after_fork_child(void) {
    pending = NULL;
    spawner_of = 0;
    pthread_mutex_unlock(&lock);
}
static void register_fork_handlers(void) { pthread_atfork(before_fork, after_fork_parent, after_fork_child); }

// Starts the spawner thread of this process, if none runs; called with `lock` held.
static int ensure_spawner(void) {
    if (spawner_of == getpid()) return 0;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // The thread runs with every signal blocked: the host's handlers run on its own threads.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int error = pthread_create(&thread, &attributes, spawner, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attributes);
    if (!error) spawner_of = getpid();
    return error;
}

int agentspawn_start(char *const argv[], char *const envp[], const char *directory,
                     int stdin_fd, int stdout_fd, int stderr_fd, pid_t *pid) {
    pthread_once(&registered, register_fork_handlers);
    struct request r = {argv, envp, directory, {stdin_fd, stdout_fd, stderr_fd}, 0, 0, 0};
    pthread_mutex_lock(&lock);
    int error = ensure_spawner();
    if (error) {
        pthread_mutex_unlock(&lock);
        return error;
    }
    while (pending) pthread_cond_wait(&answered, &lock);
    pending = &r;
    pthread_cond_signal(&posted);
    while (!r.done) pthread_cond_wait(&answered, &lock);
    pthread_mutex_unlock(&lock);
    if (r.error) return r.error;
    *pid = r.pid;
    return 0;
}

ssize_t agentspawn_write(int fd, const void *bytes, size_t count) {
    sigset_t pipe_only, old, waiting;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigpending(&waiting);
    int already = sigismember(&waiting, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    ssize_t n = write(fd, bytes, count);
    int saved = errno;
    if (n < 0 && saved == EPIPE && !already) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &zero) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return n;
}
