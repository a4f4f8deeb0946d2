#include "cordon/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A word (a run of non-blanks: usually a path) longer than LONG_WORD keeps
 * its first WORD_HEAD and last WORD_TAIL bytes around an ellipsis. */
#define LONG_WORD 320
#define WORD_HEAD 200
#define WORD_TAIL 100
static const char ellipsis[] = "\xe2\x80\xa6"; /* "…" */

static bool continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/* Append N bytes of S to OUT (of SIZE, at *LEN), as many as fit. */
static void put(char *out, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + 1 >= size)
		return;
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(out + *len, s, n);
	*len += n;
}

/* FULL (LEN bytes) shortened into OUT (SIZE bytes, NUL-terminated) so that
 * what it says last — why — survives: each long word is cut in its middle,
 * then, if that is not enough, the message itself. Cuts never split a UTF-8
 * character. */
static void shorten(const char *full, size_t len, char *out, size_t size)
{
	char *mid = malloc(len + 1);
	size_t m = 0;
	if (mid) {
		for (size_t i = 0; i < len;) {
			size_t w = i;
			while (w < len && full[w] != ' ')
				w++;
			if (w - i > LONG_WORD) {
				size_t head = WORD_HEAD, tail = WORD_TAIL;
				while (head > 0 && continuation((unsigned char)full[i + head]))
					head--;
				while (tail > 0 && continuation((unsigned char)full[w - tail]))
					tail--;
				memcpy(mid + m, full + i, head);
				m += head;
				memcpy(mid + m, ellipsis, sizeof(ellipsis) - 1);
				m += sizeof(ellipsis) - 1;
				memcpy(mid + m, full + w - tail, tail);
				m += tail;
			} else {
				memcpy(mid + m, full + i, w - i);
				m += w - i;
			}
			for (i = w; i < len && full[i] == ' '; i++)
				mid[m++] = ' ';
		}
		full = mid;
		len = m;
	}
	size_t n = 0;
	if (size == 0) {
		free(mid);
		return;
	}
	if (len < size || size < 3 * sizeof(ellipsis)) { /* (too small to cut in: truncated) */
		put(out, size, &n, full, len);
	} else {
		size_t tail = size / 3, head = size - 1 - tail - (sizeof(ellipsis) - 1);
		while (head > 0 && continuation((unsigned char)full[head]))
			head--;
		while (tail > 0 && continuation((unsigned char)full[len - tail]))
			tail--;
		put(out, size, &n, full, head);
		put(out, size, &n, ellipsis, sizeof(ellipsis) - 1);
		put(out, size, &n, full + len - tail, tail);
	}
	out[n] = '\0';
	free(mid);
}

int cordon_err(struct cordon_error *err, int code, const char *fmt, ...)
{
	if (code < 0)
		code = -code;
	if (code == 0)
		code = EINVAL;
	if (err) {
		va_list ap, again;
		va_start(ap, fmt);
		va_copy(again, ap);
		int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		/* Too long (a path of kilobytes): cut it where it does not say
		 * what is wrong, not at the end, where it does. */
		char *full = n >= (int)sizeof(err->msg) ? malloc((size_t)n + 1) : NULL;
		if (full && vsnprintf(full, (size_t)n + 1, fmt, again) == n)
			shorten(full, (size_t)n, err->msg, sizeof(err->msg));
		free(full);
		va_end(again);
		err->code = code;
	}
	return -code;
}
