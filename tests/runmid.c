/* A library between cordon-runpath2 and libcordon-runlib, which it finds
 * through its own RUNPATH ($ORIGIN/../lib). */
int cordon_runlib(void);
int cordon_runmid(void);

int cordon_runmid(void)
{
	return cordon_runlib() + 1;
}
