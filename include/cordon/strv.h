/* A growable, NULL-terminated vector of owned strings. */
#ifndef CORDON_STRV_H
#define CORDON_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct cordon_strv {
	char **v; /* NULL-terminated when n > 0 or after any push */
	size_t n;
	size_t cap; /* slots in v, when it grew by a push (else 0: the next push grows it) */
};

/* Append a copy of S. Returns 0 or -ENOMEM. */
int cordon_strv_push(struct cordon_strv *sv, const char *s);
/* Append S, taking ownership (freed on failure). Returns 0 or -ENOMEM. */
int cordon_strv_push_take(struct cordon_strv *sv, char *s);
bool cordon_strv_contains(const struct cordon_strv *sv, const char *s);
/* Append a copy of S unless SV holds it already. Returns 0 or -ENOMEM. */
int cordon_strv_push_new(struct cordon_strv *sv, const char *s);
/* Replace DST's contents with a deep copy of SRC. */
int cordon_strv_copy(struct cordon_strv *dst, const struct cordon_strv *src);
void cordon_strv_free(struct cordon_strv *sv);

#endif
