/* A program that loads libcordon-runlib.so through its RUNPATH,
 * $ORIGIN/../lib (escape/processes.c). */
#include <stdio.h>

int cordon_runlib(void);

int main(void)
{
	printf("main ran %d\n", cordon_runlib());
	return 0;
}
