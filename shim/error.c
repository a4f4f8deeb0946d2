#include "cordon/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int cordon_err(struct cordon_error *err, int code, const char *fmt, ...)
{
	if (code < 0)
		code = -code;
	if (code == 0)
		code = EINVAL;
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return -code;
}
