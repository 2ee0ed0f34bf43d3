/* The floor for fingerprinting many plugins: spawn every plugin given on
 * the command line with posix_spawn (argv: <plugin> fingerprint, an empty
 * environment, stdin from /dev/null, stdout to a pipe), at most -P at once,
 * read all their output with poll(2), reap them, and print nothing but
 * errors. Nothing else: no parsing, no timeouts, no process groups.
 *
 *   floor_spawn [-P N] plugin...
 *   floor_spawn [-P N] -d DIR      every file in DIR (readdir, as plugctl
 *                                  lists a family directory)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <dirent.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct slot {
    pid_t pid;
    int fd;
    size_t bytes;
};

int main(int argc, char **argv) {
    int parallel = 64;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-P") == 0) {
        parallel = atoi(argv[2]);
        first = 3;
    }
    char **plugins = argv + first;
    int total = argc - first;
    if (total == 2 && strcmp(plugins[0], "-d") == 0) {
        const char *dir = plugins[1];
        DIR *d = opendir(dir);
        if (!d) { perror(dir); return 1; }
        size_t cap = 256;
        plugins = malloc(cap * sizeof *plugins);
        total = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            if ((size_t)total == cap) plugins = realloc(plugins, (cap *= 2) * sizeof *plugins);
            if (asprintf(&plugins[total], "%s/%s", dir, e->d_name) < 0) return 1;
            total++;
        }
        closedir(d);
    }
    if (total <= 0 || parallel <= 0) {
        fprintf(stderr, "usage: floor_spawn [-P N] plugin... | [-P N] -d DIR\n");
        return 2;
    }
    struct slot *slots = calloc((size_t)parallel, sizeof *slots);
    struct pollfd *fds = calloc((size_t)parallel, sizeof *fds);
    char *env[] = {"DHV_OPERATION=fingerprint", NULL};
    char buf[65536];
    int next = 0, running = 0, failed = 0;
    for (int i = 0; i < parallel; i++) slots[i].pid = 0;

    while (next < total || running > 0) {
        /* fill free slots */
        for (int i = 0; i < parallel && next < total; i++) {
            if (slots[i].pid != 0) continue;
            int p[2];
            if (pipe2(p, O_CLOEXEC) != 0) { perror("pipe2"); return 1; }
            posix_spawn_file_actions_t fa;
            posix_spawn_file_actions_init(&fa);
            posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
            posix_spawn_file_actions_adddup2(&fa, p[1], 1);
            char *args[] = {plugins[next], "fingerprint", NULL};
            pid_t pid;
            int rc = posix_spawn(&pid, args[0], &fa, NULL, args, env);
            posix_spawn_file_actions_destroy(&fa);
            close(p[1]);
            if (rc != 0) {
                fprintf(stderr, "%s: %s\n", args[0], strerror(rc));
                close(p[0]);
                failed++;
                next++;
                continue;
            }
            slots[i].pid = pid;
            slots[i].fd = p[0];
            slots[i].bytes = 0;
            next++;
            running++;
        }
        /* read whatever is ready; EOF ends a slot (then reap it) */
        int n = 0;
        int map[parallel];
        for (int i = 0; i < parallel; i++) {
            if (slots[i].pid == 0) continue;
            fds[n].fd = slots[i].fd;
            fds[n].events = POLLIN;
            map[n++] = i;
        }
        if (n == 0) continue;
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            perror("poll");
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            struct slot *s = &slots[map[k]];
            ssize_t r = read(s->fd, buf, sizeof buf);
            if (r > 0) {
                s->bytes += (size_t)r;
                continue;
            }
            close(s->fd);
            int status;
            waitpid(s->pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || s->bytes == 0) failed++;
            s->pid = 0;
            running--;
        }
    }
    if (failed) fprintf(stderr, "%d plugins failed\n", failed);
    return failed ? 1 : 0;
}
