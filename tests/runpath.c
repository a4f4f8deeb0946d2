/* A program that loads libcordon-runlib.so through its RUNPATH,
 * $ORIGIN/../lib; with CORDON_RUNMID, through libcordon-runmid.so in its
 * RUNPATH's $ORIGIN/../mid, whose own RUNPATH finds it (escape/processes.c). */
#include <stdio.h>

#ifdef CORDON_RUNMID
int cordon_runmid(void);
#define CALL cordon_runmid
#else
int cordon_runlib(void);
#define CALL cordon_runlib
#endif

int main(void)
{
	printf("main ran %d\n", CALL());
	return 0;
}
