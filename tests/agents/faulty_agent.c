/* An external agent that breaks the protocol on purpose, for the gym's fault
 * tests: argv[1] names the fault, argv[2] (default 2) the ACT it happens at.
 *   exit    exits with status 3      crash   aborts (SIGABRT)
 *   hang    stops answering          junk    writes text to stdout
 *   count   answers one action too few
 *   range   answers an action out of range
 *   version answers WELCOME with protocol version 9
 *   error   answers ERROR "no policy loaded"
 *   linger  ignores BYE and keeps running
 *   unseeded plays actions drawn from /dev/urandom, not from its seeds
 * Every fault first writes a line to stderr ("faulty_agent: ..."); with
 * FAULTY_PIDFILE set, the agent then writes its process id to that file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_all(void *p, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(0, (char *)p + got, n - got);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static void send_frame(uint32_t type, const void *payload, uint32_t size) {
    uint32_t head[2] = {size + 4, type};
    if (write(1, head, 8) != 8 || (size && write(1, payload, size) != (ssize_t)size)) exit(4);
}

int main(int argc, char **argv) {
    const char *fault = argc > 1 ? argv[1] : "";
    int at = argc > 2 ? atoi(argv[2]) : 2, acts = 0;
    static uint8_t buf[1 << 24];
    static int32_t out[1 << 16];
    uint32_t noise = 0;
    FILE *urandom = fopen("/dev/urandom", "rb");
    if (urandom) { if (fread(&noise, sizeof noise, 1, urandom) != 1) noise = (uint32_t)getpid(); fclose(urandom); }
    for (;;) {
        uint32_t head[2];
        if (read_all(head, 8) != 0) return 2;
        uint32_t size = head[0] - 4;
        if (size > sizeof buf || read_all(buf, size) != 0) return 2;
        if (head[1] == 1) {
            uint8_t w[4 + 4 + 6];
            uint32_t v = strcmp(fault, "version") == 0 ? 9 : 1, n = 6;
            memcpy(w, &v, 4); memcpy(w + 4, &n, 4); memcpy(w + 8, "faulty", 6);
            send_frame(0x81, w, sizeof w);
        } else if (head[1] == 4) {
            uint32_t count;
            memcpy(&count, buf, 4);
            if (++acts == at) {
                fprintf(stderr, "faulty_agent: %s at act %d\n", fault, acts);
                fflush(stderr);
                const char *pidfile = getenv("FAULTY_PIDFILE");
                if (pidfile) {
                    char tmp[4096];
                    snprintf(tmp, sizeof tmp, "%s.tmp", pidfile);
                    FILE *f = fopen(tmp, "w");
                    if (f) { fprintf(f, "%d\n", (int)getpid()); fclose(f); rename(tmp, pidfile); }
                }
                if (!strcmp(fault, "exit")) return 3;
                if (!strcmp(fault, "crash")) abort();
                if (!strcmp(fault, "hang")) for (;;) pause();
                if (!strcmp(fault, "junk")) { const char *j = "hello from print()\n"; if (write(1, j, strlen(j)) < 0) return 4; continue; }
                if (!strcmp(fault, "error")) {
                    uint8_t e[4 + 16]; uint32_t n = 16;
                    memcpy(e, &n, 4); memcpy(e + 4, "no policy loaded", 16);
                    send_frame(0x8F, e, sizeof e);
                    return 1;
                }
            }
            uint32_t reply = count;
            if (acts == at && !strcmp(fault, "count")) reply = count - 1;
            out[0] = (int32_t)reply;
            for (uint32_t k = 0; k < reply; k++) out[1 + k] = strcmp(fault, "unseeded") ? 0 : (int32_t)((noise = noise * 1664525u + 1013904223u) >> 30) % 3;
            if (acts == at && !strcmp(fault, "range") && reply) out[1] = 7;
            send_frame(0x84, out, 4 + 4 * reply);
        } else if (head[1] == 5) {
            if (!strcmp(fault, "linger")) for (;;) pause();
            return 0;
        }
    }
}
