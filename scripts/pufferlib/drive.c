/* Steps N PufferLib 3.0 C environments with random actions on one thread,
   the way `gym-train bench` steps ours: one contiguous observation buffer
   (the environments' rows in it, as PufferLib's vector binding lays them
   out), every game's action drawn before each step, wall time around the
   step loop only (64 steps of every game between clock reads).

   Built by scripts/bench-pufferlib.sh with GAME_HEADER (pong.h or
   breakout.h), ENV (its struct), OBS (floats per observation) and
   SETUP(e) (the defaults of the game's Python class) defined.

   usage: drive FRAMESKIP SECONDS [ENVS]; prints "<M> M steps/s (<C> M per CPU-s, ...)". */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include GAME_HEADER

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }
/* The process's CPU time: what `gym-train bench`'s "per CPU-s" divides by. */
static double cpu_now(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

int main(int argc, char** argv) {
    int frameskip = argc > 1 ? atoi(argv[1]) : 1;
    double seconds = argc > 2 ? atof(argv[2]) : 1;
    int n = argc > 3 ? atoi(argv[3]) : 1024;
    if (frameskip < 1 || seconds <= 0 || n < 1) {
        fprintf(stderr, "usage: drive FRAMESKIP SECONDS [ENVS] (each positive)\n");
        return 2;
    }
    srand(1);  /* the environments draw serves with rand() */
    ENV* envs = calloc(n, sizeof(ENV));
    float* obs = calloc((size_t)n * OBS, sizeof(float));
    float* act = calloc(n, sizeof(float));
    float* rew = calloc(n, sizeof(float));
    unsigned char* term = calloc(n, 1);
    for (int i = 0; i < n; i++) {
        ENV* e = &envs[i];
        SETUP(e);
        e->frameskip = frameskip;
        init(e);
        e->observations = obs + (size_t)i * OBS;
        e->actions = act + i;
        e->rewards = rew + i;
        e->terminals = term + i;
        c_reset(e);
    }
    /* Actions 0, 1, 2 uniformly from xorshift64 (multiply-high, no division). */
    uint64_t x = 88172645463325252ull, steps = 0;
    double t0 = now(), c0 = cpu_now(), t;
    do {
        for (int k = 0; k < 64; k++) {
            for (int i = 0; i < n; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                act[i] = (float)(((x >> 32) * 3) >> 32);
            }
            for (int i = 0; i < n; i++) c_step(&envs[i]);
        }
        steps += 64ull * n;
        t = now();
    } while (t - t0 < seconds);
    /* Read the observations so no compiler can drop their writes. */
    double sum = 0;
    for (size_t i = 0; i < (size_t)n * OBS; i++) sum += obs[i];
    double c = cpu_now() - c0;
    printf("%.3f M steps/s (%.3f M per CPU-s, %llu steps in %.3f s, frame skip %d, %d games, observation sum %g)\n",
           steps / (t - t0) / 1e6, steps / c / 1e6, (unsigned long long)steps, t - t0, frameskip, n, sum);
    return 0;
}
