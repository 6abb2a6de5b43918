/* Throughput and latency of one GET over a Unix socket, HTTP/1.1 keep-alive, one request in flight per connection,
 * from THREADS threads that each drive their share of the connections with epoll. Written because h2load runs its
 * connections on threads it fixes with -t and, at -t 1, capped nginx before nginx was busy (issue 32); this client
 * reports its own CPU share, and the harness runs it at 1 and 2 threads and at 16 and 32 connections to show that
 * its own speed does not decide the reference's rate.
 *
 * Usage: loadgen SOCKET PATH CONNECTIONS THREADS SECONDS WARMUP_SECONDS
 * Prints one line of JSON: {"requests": N, "rps": R, "p50_us": X, "p99_us": Y, "client_cpu": C}, where C is the
 * client's CPU seconds per second of the measured window (1.0 = one core busy). Exits 1 on any non-2xx answer. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define BUCKETS 1000000 /* latency histogram: 1 µs buckets up to 1 s; slower answers land in the last */
#define FIRST_BUFFER 65536 /* grown for larger answers (a 1 MiB state) */

struct connection { int fd; double sent; size_t have, capacity; char *buffer; };
struct worker { int first, count; uint32_t *histogram; long requests; pthread_t thread; };

static const char *socket_path;
static char request[1024];
static size_t request_length;
static double measure_from, measure_until;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) {
    fprintf(stderr, "loadgen: %s (%s)\n", what, strerror(errno));
    exit(1);
}

static void send_request(struct connection *c) {
    c->sent = now();
    c->have = 0;
    for (size_t sent = 0; sent < request_length;) {
        ssize_t n = write(c->fd, request + sent, request_length - sent);
        if (n <= 0) die("write failed");
        sent += n;
    }
}

/* The length of the complete response at the start of `c->buffer`, or 0 while it is incomplete. */
static size_t complete_response(struct connection *c) {
    c->buffer[c->have] = 0;
    char *end = strstr(c->buffer, "\r\n\r\n");
    if (!end) return 0;
    int status = atoi(c->buffer + 9);
    if (status < 200 || status > 299) {
        fprintf(stderr, "loadgen: answered:\n%s\n", c->buffer);
        exit(1);
    }
    long content = -1;
    for (char *line = strstr(c->buffer, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n"))
        if (strncasecmp(line + 2, "content-length:", 15) == 0) content = atol(line + 17);
    if (content < 0) die("an answer without Content-Length");
    size_t total = (end + 4 - c->buffer) + content;
    if (total >= c->capacity) {
        c->capacity = total + 1;
        if (!(c->buffer = realloc(c->buffer, c->capacity))) die("out of memory");
    }
    return c->have >= total ? total : 0;
}

static void *drive(void *argument) {
    struct worker *w = argument;
    int poll = epoll_create1(0);
    struct connection *connections = calloc(w->count, sizeof *connections);
    for (int i = 0; i < w->count; i++) {
        struct connection *c = &connections[i];
        c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
        c->capacity = FIRST_BUFFER;
        if (!(c->buffer = malloc(c->capacity))) die("out of memory");
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
        if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0) die("cannot connect");
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(poll, EPOLL_CTL_ADD, c->fd, &event);
        send_request(c);
    }
    struct epoll_event events[64];
    for (;;) {
        int ready = epoll_wait(poll, events, 64, 100);
        if (ready < 0 && errno != EINTR) die("epoll_wait failed");
        double at = now();
        if (at >= measure_until) break;
        for (int e = 0; e < ready; e++) {
            struct connection *c = events[e].data.ptr;
            if (c->have + 1 >= c->capacity) {
                c->capacity *= 2;
                if (!(c->buffer = realloc(c->buffer, c->capacity))) die("out of memory");
            }
            ssize_t n = read(c->fd, c->buffer + c->have, c->capacity - 1 - c->have);
            if (n <= 0) die("the server closed a connection");
            c->have += n;
            size_t total = complete_response(c);
            if (!total) continue;
            if (c->have > total) die("more bytes than one response: the server answered ahead");
            if (c->sent >= measure_from) {
                long micros = (long)((at - c->sent) * 1e6);
                w->histogram[micros < BUCKETS ? micros : BUCKETS - 1]++;
                w->requests++;
            }
            send_request(c);
        }
    }
    for (int i = 0; i < w->count; i++) {
        close(connections[i].fd);
        free(connections[i].buffer);
    }
    free(connections);
    close(poll);
    return NULL;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double percentile(uint32_t *histogram, long total, double fraction) {
    long rank = (long)(fraction * total + 0.5), seen = 0;
    for (long b = 0; b < BUCKETS; b++)
        if ((seen += histogram[b]) >= rank) return b;
    return BUCKETS - 1;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: loadgen SOCKET PATH CONNECTIONS THREADS SECONDS WARMUP_SECONDS\n");
        return 2;
    }
    socket_path = argv[1];
    int connections = atoi(argv[3]), threads = atoi(argv[4]);
    double seconds = atof(argv[5]), warm_up = atof(argv[6]);
    if (connections < 1 || threads < 1 || threads > connections || seconds <= 0) die("bad arguments");
    request_length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n", argv[2]);
    double start = now();
    measure_from = start + warm_up;
    measure_until = measure_from + seconds;
    struct worker *workers = calloc(threads, sizeof *workers);
    for (int t = 0, first = 0; t < threads; t++) {
        workers[t].first = first;
        workers[t].count = connections / threads + (t < connections % threads);
        first += workers[t].count;
        workers[t].histogram = calloc(BUCKETS, sizeof(uint32_t));
        pthread_create(&workers[t].thread, NULL, drive, &workers[t]);
    }
    struct timespec pause = {.tv_sec = (time_t)warm_up, .tv_nsec = (long)((warm_up - (time_t)warm_up) * 1e9)};
    nanosleep(&pause, NULL);
    double cpu_from = cpu_seconds(), wall_from = now();
    for (int t = 0; t < threads; t++) pthread_join(workers[t].thread, NULL);
    double cpu = cpu_seconds() - cpu_from, wall = now() - wall_from;
    long total = 0;
    for (int t = 0; t < threads; t++) {
        total += workers[t].requests;
        if (t) for (long b = 0; b < BUCKETS; b++) workers[0].histogram[b] += workers[t].histogram[b];
    }
    if (total == 0) die("no request was measured");
    printf("{\"requests\": %ld, \"rps\": %.1f, \"p50_us\": %.0f, \"p99_us\": %.0f, \"client_cpu\": %.2f}\n", total,
           total / seconds, percentile(workers[0].histogram, total, 0.50), percentile(workers[0].histogram, total, 0.99),
           cpu / wall);
    return 0;
}
