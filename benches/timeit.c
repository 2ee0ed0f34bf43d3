/* A timer for machines without hyperfine: runs a command N times (after a
 * warm-up run unless -W), each time after an optional shell "prepare"
 * command that is not timed, and prints the median wall time in
 * milliseconds on stdout (with -a: every run's, one per line). The
 * command's own output goes to /dev/null.
 *
 *   timeit [-n N] [-a] [-W] [-p 'prepare shell command'] -- command [args...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int run(char **argv, int quiet) {
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); exit(1); }
    if (pid == 0) {
        if (quiet) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int n = 10, all = 0, warmup = 1;
    char *prepare = NULL;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) prepare = argv[++i];
        else if (strcmp(argv[i], "-a") == 0) all = 1;
        else if (strcmp(argv[i], "-W") == 0) warmup = 0;
        else if (strcmp(argv[i], "--") == 0) { i++; break; }
        else break;
    }
    if (i >= argc || n < 1) {
        fprintf(stderr, "usage: timeit [-n N] [-a] [-W] [-p prepare] -- command [args...]\n");
        return 2;
    }
    char *sh[] = {"/bin/sh", "-c", prepare, NULL};
    double *times = calloc((size_t)n, sizeof *times);
    for (int k = warmup ? -1 : 0; k < n; k++) { /* k == -1: warm-up */
        if (prepare && run(sh, 0) != 0) { fprintf(stderr, "prepare failed\n"); return 1; }
        double t = now_ms();
        run(argv + i, 1);
        if (k >= 0) times[k] = now_ms() - t;
    }
    if (all) {
        for (int k = 0; k < n; k++) printf("%.3f\n", times[k]);
        return 0;
    }
    qsort(times, (size_t)n, sizeof *times, cmp);
    double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    printf("%.3f\n", median);
    return 0;
}
