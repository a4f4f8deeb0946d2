/* A program whose code runs before main: its .preinit_array appends a line
 * to argv[1] (a path outside the sandbox), then main says it ran. As a
 * session's command, the shim's constructor would come after that code. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static void early(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc < 2)
		return;
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!write(fd, "preinit ran\n", 12);
		close(fd);
	}
}

__attribute__((section(".preinit_array"), used)) static void (*const run_early)(int, char **,
										char **) = early;

int main(void)
{
	puts("main ran");
	return 0;
}
