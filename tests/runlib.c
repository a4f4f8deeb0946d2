/* A library whose constructor appends a line to argv[1] (a path outside
 * the sandbox), linked by cordon-runpath, which finds it through its
 * RUNPATH ($ORIGIN/../lib). Loaded with the preloaded shim, its
 * constructor would run before the shim's. */
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void early(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc < 2)
		return;
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!write(fd, "constructor ran\n", 16);
		close(fd);
	}
}

int cordon_runlib(void);

int cordon_runlib(void)
{
	return 7;
}
