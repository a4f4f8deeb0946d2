#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *path_join(const char *a, const char *b)
{
	char *p;
	if (asprintf(&p, "%s/%s", a, b) < 0)
		abort();
	return p;
}

char *tmp_dir(const char *tag)
{
	char *tmpl;
	if (asprintf(&tmpl, "/tmp/cordon-test-%s-XXXXXX", tag) < 0)
		abort();
	if (!mkdtemp(tmpl))
		abort();
	/* Canonical, so tests can compare with resolved policy paths. */
	char *canon = realpath(tmpl, NULL);
	free(tmpl);
	return canon;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

void tmp_cleanup(const char *dir)
{
	if (dir && strncmp(dir, "/tmp/cordon-test-", 17) == 0)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkparents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
}

char *write_file(const char *dir, const char *name, const char *content)
{
	char *p = path_join(dir, name);
	mkparents(p);
	FILE *f = fopen(p, "w");
	if (!f)
		abort();
	fputs(content, f);
	fclose(f);
	return p;
}

char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

bool file_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	if (n <= 0)
		return;
	while (*len + (size_t)n + 1 > *cap)
		*buf = realloc(*buf, *cap *= 2);
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct run_result run_cmd(char *const argv[], char *const envp[], const char *cwd,
			  int timeout_ms)
{
	int out[2], err[2];
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		if (cwd && chdir(cwd) < 0)
			_exit(121);
		if (envp)
			execve(argv[0], argv, envp);
		else
			execv(argv[0], argv);
		_exit(122);
	}
	close(out[1]);
	close(err[1]);
	struct run_result r = {0};
	size_t olen = 0, ocap = 256, elen = 0, ecap = 256;
	r.out = calloc(1, ocap);
	r.err = calloc(1, ecap);
	long deadline = now_ms() + timeout_ms;
	struct pollfd p[2] = {{.fd = out[0], .events = POLLIN}, {.fd = err[0], .events = POLLIN}};
	int open_fds = 2;
	bool killed = false;
	while (open_fds > 0) {
		long left = deadline - now_ms();
		if (left <= 0) {
			kill(pid, SIGKILL);
			killed = true;
			break;
		}
		if (poll(p, 2, (int)left) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			size_t before = i ? elen : olen;
			if (i)
				drain(p[i].fd, &r.err, &elen, &ecap);
			else
				drain(p[i].fd, &r.out, &olen, &ocap);
			if ((i ? elen : olen) == before) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	int st;
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (killed)
		r.status = 128 + SIGKILL;
	return r;
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

struct run_result run_cordon(char *const envp[], const char *cwd, ...)
{
	char *argv[64];
	int n = 0;
	argv[n++] = (char *)CORDON_BIN;
	va_list ap;
	va_start(ap, cwd);
	char *a;
	while ((a = va_arg(ap, char *)) && n < 63)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	return run_cmd(argv, envp, cwd, 20000);
}
