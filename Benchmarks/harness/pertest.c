/* A test's whole overhead over a Unix socket: each client keeps one connection and repeats a test's four requests
 * (create a session, perform an action, read the state, delete the session), timing each test from its first
 * byte sent to its last byte read. Written in C because no packaged load generator sends a sequence of different
 * methods per connection (h2load repeats one method) and a Python client's own cost would hide the server's.
 *
 * Usage: pertest SOCKET CLIENTS SECONDS WARMUP_SECONDS MAX_TESTS_PER_CLIENT STEP...
 *   STEP is METHOD PATH BODY ("-" for none); "{id}" in a path or body becomes a test id unique in the run.
 * Prints one line of JSON: {"tests": N, "p50_us": X, "p99_us": Y, "tests_per_second": Z}; exits 1 on any non-2xx. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_STEPS 8

struct step { const char *method, *path, *body; };

static const char *socket_path;
static struct step steps[MAX_STEPS];
static int step_count;
static double seconds, warm_up;
static long max_tests;

struct client { int index; long count; double *latencies; double measured_start, measured_end; };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) {
    fprintf(stderr, "pertest: %s\n", what);
    exit(1);
}

/* Replaces every "{id}" in `template` with `id`. */
static void expand(char *out, size_t size, const char *template, const char *id) {
    size_t used = 0;
    for (const char *p = template; *p && used + 1 < size;) {
        if (strncmp(p, "{id}", 4) == 0) {
            used += snprintf(out + used, size - used, "%s", id);
            p += 4;
        } else {
            out[used++] = *p++;
        }
    }
    out[used < size ? used : size - 1] = 0;
}

/* Sends one request and reads its response (Content-Length bodies only, as the control API and nginx send). */
static void exchange(int fd, const struct step *step, const char *id, char *buffer, size_t size) {
    char path[512], body[1024], request[2048];
    expand(path, sizeof path, step->path, id);
    body[0] = 0;
    if (strcmp(step->body, "-") != 0) expand(body, sizeof body, step->body, id);
    size_t length = strlen(body);
    int head = snprintf(request, sizeof request,
                        "%s %s HTTP/1.1\r\nHost: localhost\r\nContent-Length: %zu\r\n%s\r\n%s", step->method, path, length,
                        length ? "Content-Type: application/json\r\n" : "", body);
    for (int sent = 0; sent < head;) {
        ssize_t n = write(fd, request + sent, head - sent);
        if (n <= 0) die("write failed");
        sent += n;
    }
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        ssize_t n = read(fd, buffer + have, size - 1 - have);
        if (n <= 0) die("the server closed the connection");
        have += n;
        buffer[have] = 0;
        end = strstr(buffer, "\r\n\r\n");
    }
    int status = atoi(buffer + 9);
    if (status < 200 || status > 299) {
        fprintf(stderr, "pertest: %s %s answered:\n%s\n", step->method, path, buffer);
        exit(1);
    }
    long content = 0;
    for (char *line = strstr(buffer, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "content-length:", 15) == 0) content = atol(line + 17);
        if (strncasecmp(line + 2, "transfer-encoding:", 18) == 0) die("chunked responses are not read here");
    }
    size_t total = (end + 4 - buffer) + content;
    while (have < total) {
        ssize_t n = read(fd, buffer, total - have < size ? total - have : size);
        if (n <= 0) die("the server closed the connection mid-body");
        have += n;
    }
    if (have > total) die("more bytes than one response: the server answered ahead");
}

static void *run_client(void *argument) {
    struct client *client = argument;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) die("cannot connect");
    char *buffer = malloc(1 << 20);
    char id[64];
    double start = now(), measure_from = start + warm_up, stop = measure_from + seconds;
    client->measured_start = measure_from;
    for (long test = 0;; test++) {
        double began = now();
        if (began >= stop || client->count >= max_tests) break;
        snprintf(id, sizeof id, "pt-%d-%ld", client->index, test);
        for (int s = 0; s < step_count; s++) exchange(fd, &steps[s], id, buffer, 1 << 20);
        double ended = now();
        if (began >= measure_from) client->latencies[client->count++] = (ended - began) * 1e6;
        client->measured_end = ended;
    }
    free(buffer);
    close(fd);
    return NULL;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 9 || (argc - 6) % 3 != 0 || (argc - 6) / 3 > MAX_STEPS) {
        fprintf(stderr, "usage: pertest SOCKET CLIENTS SECONDS WARMUP MAX_TESTS_PER_CLIENT (METHOD PATH BODY)...\n");
        return 2;
    }
    socket_path = argv[1];
    int clients = atoi(argv[2]);
    seconds = atof(argv[3]);
    warm_up = atof(argv[4]);
    max_tests = atol(argv[5]);
    for (int i = 6; i < argc; i += 3) steps[step_count++] = (struct step){argv[i], argv[i + 1], argv[i + 2]};
    struct client *all = calloc(clients, sizeof *all);
    pthread_t *threads = calloc(clients, sizeof *threads);
    for (int c = 0; c < clients; c++) {
        all[c] = (struct client){.index = c, .latencies = malloc(sizeof(double) * max_tests)};
        pthread_create(&threads[c], NULL, run_client, &all[c]);
    }
    long total = 0;
    double first = 0, last = 0;
    for (int c = 0; c < clients; c++) {
        pthread_join(threads[c], NULL);
        total += all[c].count;
        if (c == 0 || all[c].measured_start < first) first = all[c].measured_start;
        if (all[c].measured_end > last) last = all[c].measured_end;
    }
    if (total == 0) die("no test was measured");
    double *latencies = malloc(sizeof(double) * total);
    long at = 0;
    for (int c = 0; c < clients; c++) {
        memcpy(latencies + at, all[c].latencies, sizeof(double) * all[c].count);
        at += all[c].count;
    }
    qsort(latencies, total, sizeof(double), ascending);
    long p50 = (long)(0.50 * total + 0.5) - 1, p99 = (long)(0.99 * total + 0.5) - 1;
    printf("{\"tests\": %ld, \"p50_us\": %.1f, \"p99_us\": %.1f, \"tests_per_second\": %.1f}\n", total,
           latencies[p50 < 0 ? 0 : p50], latencies[p99 < 0 ? 0 : p99], total / (last - first));
    return 0;
}
