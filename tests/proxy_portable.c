/* cordon-proxy-portable: cordon's proxy as macOS builds it (shim/proxy.c
 * with CORDON_PROXY_PORTABLE: the portable relay of shim/proxy-relay.c,
 * socket/accept + fcntl), run in this process for
 * tests/test_proxy_portable.c. A program of its own because the test
 * runner links the Linux proxy (cordon_core): the two cannot share one
 * executable.
 *
 *   cordon-proxy-portable [--fork] [--deny RULE]... RULE...
 *
 * Starts the proxy with RULE... as allowed_domains (and the --deny ones as
 * denied_domains), prints "PORT RELAY HOOKS" on stdout (RELAY: "poll" or
 * "splice"; HOOKS: "hooks" when built with the test-only name map,
 * CORDON_TEST_HOSTS), and serves until its stdin ends.
 *
 * --fork: as macOS's session does (shim/macos/session.c): listen here,
 * fork, serve in the child, which says so on a pipe; this process closes
 * its copy of the socket. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "cordon/strv.h"
#include "proxy.h"

int main(int argc, char **argv)
{
	struct cordon_policy p;
	memset(&p, 0, sizeof(p));
	p.sandbox = p.allow_network = p.domains = true;
	bool forked = argc > 1 && strcmp(argv[1], "--fork") == 0;
	for (int i = forked ? 2 : 1; i < argc; i++) {
		struct cordon_strv *to = &p.allowed_domains;
		if (strcmp(argv[i], "--deny") == 0 && i + 1 < argc) {
			to = &p.denied_domains;
			i++;
		}
		if (cordon_strv_push(to, argv[i]) < 0)
			return 1;
	}
	struct sockaddr_in addr;
	struct cordon_error err = {0};
	if (!forked && cordon_proxy_start(&p, -1, &addr, &err) < 0) {
		fprintf(stderr, "cordon-proxy-portable: %s\n", err.msg);
		return 1;
	}
	if (forked) {
		int ready[2];
		char ok = 0;
		if (cordon_proxy_listen(&p, -1, &addr, &err) < 0 || pipe(ready) < 0) {
			fprintf(stderr, "cordon-proxy-portable: %s\n", err.msg);
			return 1;
		}
		pid_t pid = fork();
		if (pid == 0) {
			close(ready[0]);
			ok = cordon_proxy_serve(&err) == 0;
			(void)!write(ready[1], &ok, 1);
			close(ready[1]);
			if (!ok)
				_exit(1);
			char c;
			while (read(STDIN_FILENO, &c, 1) > 0)
				;
			_exit(0);
		}
		close(ready[1]);
		cordon_proxy_close();
		if (pid < 0 || read(ready[0], &ok, 1) != 1 || !ok) {
			fprintf(stderr, "cordon-proxy-portable: the child does not serve\n");
			return 1;
		}
		close(ready[0]);
	}
#ifdef CORDON_TEST_HOOKS
	const char *hooks = "hooks";
#else
	const char *hooks = "nohooks";
#endif
	printf("%u %s %s\n", (unsigned)ntohs(addr.sin_port), cordon_proxy_relay_kind, hooks);
	fflush(stdout);
	char c;
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	cordon_strv_free(&p.allowed_domains);
	cordon_strv_free(&p.denied_domains);
	return 0;
}
