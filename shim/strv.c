#include "cordon/strv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int cordon_strv_push_take(struct cordon_strv *sv, char *s)
{
	if (!s)
		return -ENOMEM;
	char **nv = cordon_grow(sv->v, &sv->cap, sv->n + 2, sizeof(*nv), 8);
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	sv->v = nv;
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
	return 0;
}

int cordon_strv_push(struct cordon_strv *sv, const char *s)
{
	return cordon_strv_push_take(sv, strdup(s));
}

bool cordon_strv_contains(const struct cordon_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

int cordon_strv_push_new(struct cordon_strv *sv, const char *s)
{
	return cordon_strv_contains(sv, s) ? 0 : cordon_strv_push(sv, s);
}

int cordon_strv_copy(struct cordon_strv *dst, const struct cordon_strv *src)
{
	struct cordon_strv out = {0};
	for (size_t i = 0; i < src->n; i++) {
		int r = cordon_strv_push(&out, src->v[i]);
		if (r < 0) {
			cordon_strv_free(&out);
			return r;
		}
	}
	cordon_strv_free(dst);
	*dst = out;
	return 0;
}

void cordon_strv_free(struct cordon_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
	sv->cap = 0;
}
