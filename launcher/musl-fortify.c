/* Linked only into the musl launcher (see CMakeLists.txt): Debian's
 * libjson-c.a is compiled against glibc with _FORTIFY_SOURCE, so it calls
 * glibc's checked entry points, which musl does not have. These are those
 * entry points, with the same checks (abort on a destination smaller than
 * the length promised) on top of musl's plain functions. The flag argument
 * (glibc's %n policy) needs nothing here: musl's printf is not writable
 * through a format. Every other symbol the archive uses has the same ABI in
 * both libraries on Linux (errno, stat, locale_t, FILE *). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

/* The names are glibc's ABI, reserved identifiers by design. */
/* NOLINTBEGIN(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap);
int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap);
char *__strcat_chk(char *dst, const char *src, size_t dstlen);
void __vsyslog_chk(int priority, int flag, const char *fmt, va_list ap);

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap)
{
	(void)flag;
	if (maxlen > slen)
		abort();
	return vsnprintf(s, maxlen, fmt, ap);
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = __vsnprintf_chk(s, maxlen, flag, slen, fmt, ap);
	va_end(ap);
	return r;
}

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vfprintf(f, fmt, ap);
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = __vfprintf_chk(f, flag, fmt, ap);
	va_end(ap);
	return r;
}

int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vasprintf(out, fmt, ap);
}

char *__strcat_chk(char *dst, const char *src, size_t dstlen)
{
	size_t have = strnlen(dst, dstlen);
	size_t add = strlen(src);
	if (have == dstlen || add >= dstlen - have)
		abort();
	memcpy(dst + have, src, add + 1);
	return dst;
}

void __vsyslog_chk(int priority, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	vsyslog(priority, fmt, ap);
}
/* NOLINTEND(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
