/* A complete external agent in C (protocol of docs/agents.md, version 1):
 * plays the action given as its first argument (default 0) in every game.
 * Build: cc -O2 -o constant_agent constant_agent.c
 * Assumes a little-endian machine (as the protocol's byte order is). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { HELLO = 1, START = 2, END = 3, ACT = 4, BYE = 5, WELCOME = 0x81, ACTIONS = 0x84, ERROR = 0x8F };

static int read_all(void *p, size_t n) {
    for (size_t got = 0; got < n;) {
        ssize_t r = read(0, (char *)p + got, n - got);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static void write_all(const void *p, size_t n) {
    for (size_t put = 0; put < n;) {
        ssize_t w = write(1, (const char *)p + put, n - put);
        if (w <= 0) exit(3);
        put += (size_t)w;
    }
}

/* One frame: the 8-byte head (length, type), then the payload. */
static void send_frame(uint32_t type, const void *payload, uint32_t size) {
    uint32_t head[2] = {size + 4, type};
    write_all(head, 8);
    write_all(payload, size);
}

int main(int argc, char **argv) {
    int32_t action = argc > 1 ? atoi(argv[1]) : 0;
    uint8_t *buf = NULL;
    int32_t *actions = NULL;
    for (;;) {
        uint32_t head[2];
        if (read_all(head, 8) != 0) return 2; /* stream closed without BYE */
        uint32_t size = head[0] - 4, type = head[1];
        buf = realloc(buf, size ? size : 1);
        if (!buf || read_all(buf, size) != 0) return 2;
        if (type == HELLO) {
            uint32_t version;
            memcpy(&version, buf, 4);
            if (version != 1) {
                const char *m = "constant_agent speaks protocol version 1 only";
                uint32_t n = (uint32_t)strlen(m);
                uint8_t out[64];
                memcpy(out, &n, 4); memcpy(out + 4, m, n);
                send_frame(ERROR, out, 4 + n);
                return 1;
            }
            uint8_t out[4 + 4 + 10] = {0};
            uint32_t v = 1, n = 10;
            memcpy(out, &v, 4); memcpy(out + 4, &n, 4); memcpy(out + 8, "c-constant", 10);
            send_frame(WELCOME, out, sizeof out);
        } else if (type == ACT) {
            uint32_t count;
            memcpy(&count, buf, 4);
            actions = realloc(actions, 4 + 4 * (size_t)count);
            if (!actions) return 3;
            actions[0] = (int32_t)count;
            for (uint32_t k = 0; k < count; k++) actions[1 + k] = action;
            send_frame(ACTIONS, actions, 4 + 4 * count);
        } else if (type == BYE) {
            return 0;
        } /* START and END: a constant agent has no state */
    }
}
