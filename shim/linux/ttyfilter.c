/* What a session writes to the user's terminal, filtered (ttyfilter.h). */
#include "ttyfilter.h"

#include <string.h>

enum {
	GROUND,
	GROUND_C2, /* a 0xC2, maybe a C1 control's first byte */
	ESCAPE,    /* an ESC */
	CSI,       /* a control sequence, held whole */
	CSI_DROP,  /* one too long to be anything but a trick: dropped */
	STRING,    /* a string's head, held until it is judged */
	STR_PASS,  /* the rest of a string passed on */
	STR_DROP,  /* the rest of a string dropped */
};

#define ESC 0x1b
#define BEL 0x07
#define CAN 0x18
#define SUB 0x1a

void cordon_ttyfilter_init(struct cordon_ttyfilter *f)
{
	memset(f, 0, sizeof(*f));
	f->state = GROUND;
}

static void put(char *out, size_t *o, const char *p, size_t n)
{
	memcpy(out + *o, p, n);
	*o += n;
}

/* The sequence kind a C1 control (its second UTF-8 byte) introduces, or 0. */
static unsigned char c1_kind(unsigned char c)
{
	switch (c) {
	case 0x9b:
		return '[';
	case 0x9d:
		return ']';
	case 0x90:
		return 'P';
	case 0x9f:
		return '_';
	case 0x9e:
		return '^';
	case 0x98:
		return 'X';
	default:
		return 0;
	}
}

static bool has(const char *p, size_t n, const char *what)
{
	size_t k = strlen(what);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(p + i, what, k) == 0)
			return true;
	return false;
}

/* Whether the control sequence in HEAD (intro, parameters, final byte) is
 * dropped. */
static bool csi_dropped(const struct cordon_ttyfilter *f, bool fg)
{
	const char *p = f->head + 2;
	size_t n = f->n - 3;
	char final = f->head[f->n - 1];
	/* DECRQCRA: a checksum of what the screen shows, the user's own
	 * output before the session included. */
	if (final == 'y' && n && p[n - 1] == '*')
		return true;
	if (fg)
		return false;
	/* Questions, whose answer the terminal types: the cursor's position
	 * and status (n), what it is (c, > q, x: DECREQTPARM), its window
	 * (t: sizes, title), a mode's state ($ p), its keyboard protocol
	 * (? u, ? m: XTQMODKEYS), its graphics (? S), its state and colours
	 * ($ w: DECRQPSR, $ u: DECRQTSR, & u: DECRQUPSS), what a rectangle
	 * holds (# |: XTREPORTSGR), what the screen shows (" v: DECRQDE). */
	bool ask = n && p[0] == '?';
	if (final == 't' && !has(p, n, " ") && !has(p, n, ">")) {
		/* Window operations: 11, 13-21 report (the title, sizes,
		 * place); the rest (vim's 22 and 23: push and pop the title,
		 * a resize) ask nothing. */
		long op = 0;
		for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '9' && op < 1000; i++)
			op = op * 10 + (p[i] - '0');
		return op == 0 || op == 11 || (op >= 13 && op <= 21) || op >= 1000;
	}
	return final == 'n' || final == 'c' || (final == 'p' && has(p, n, "$")) ||
	       (final == 'q' && n && p[0] == '>') || (final == 'u' && ask) ||
	       (final == 'S' && ask) || (final == 'm' && ask) ||
	       (final == 'x' && !has(p, n, "*") && !has(p, n, "$")) ||
	       (final == 'w' && has(p, n, "$")) ||
	       (final == 'u' && (has(p, n, "$") || has(p, n, "&"))) ||
	       (final == '|' && has(p, n, "#")) || (final == 'v' && has(p, n, "\""));
}

/* Where a DCS's string begins in P[0, N): after its parameters (and, with
 * INTERMEDIATES, those too), which a terminal keeps apart from it. */
static size_t dcs_body(const char *p, size_t n, bool intermediates)
{
	size_t i = 0;
	while (i < n && p[i] >= 0x30 && p[i] <= 0x3f)
		i++;
	while (intermediates && i < n && p[i] >= 0x20 && p[i] <= 0x2f)
		i++;
	return i;
}

/* Whether the string in HEAD (intro, then its first bytes) is dropped:
 * WHOLE, it ended there; else it goes on past the head, and what the
 * head does not show (a number or keys not ended yet, a "?" to come) is
 * taken for the worst. */
static bool string_dropped(const struct cordon_ttyfilter *f, bool fg, bool whole)
{
	/* Judged as the terminal reads it: without the C0 controls in it,
	 * which terminals ignore there (tmux read ESC ] 5 ^A 2 as OSC 52). */
	char p[CORDON_TTYFILTER_HEAD] = {0};
	size_t n = 0;
	for (size_t k = 2; k < f->n; k++)
		if ((unsigned char)f->head[k] >= 0x20)
			p[n++] = f->head[k];
	if (f->kind == ']') {
		long num = 0;
		size_t i = 0;
		for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
			/* (No OSC has a number this long: a terminal's own
			 * arithmetic overflows it into another, tmux's
			 * 4294967298 into 2.) */
			if (num >= 100000)
				return true;
			num = num * 10 + (p[i] - '0');
		}
		/* (Its number not ended within the head: leading zeros.) */
		if (!whole && i == n)
			return true;
		/* kitty's file transfer and clipboard, iTerm2's files and
		 * clipboard. */
		if (num == 5113 || num == 5522 || num == 1337)
			return true;
		/* iTerm2's 1337 as it was first numbered (xterm's font, which
		 * programs seldom set, lost with it). */
		if (num == 50)
			return true;
		if (num == 52) {
			/* 52;SELECTION;DATA: DATA "?" asks for the clipboard.
			 * Any "?" in the head is taken for that (DATA is
			 * base64, which has none; a terminal may read "52;?"
			 * without a selection as the question). */
			const char *semi =
				i < n && p[i] == ';' ? memchr(p + i + 1, ';', n - i - 1) : NULL;
			return memchr(p, '?', n) || (!semi && !whole);
		}
		/* Out of the foreground, a question (colours: 4, 10-19, ...
		 * with "?", which may come after the head in a list); titles,
		 * the directory, links and notices may hold a "?" and ask
		 * nothing. */
		bool says = num == 0 || num == 1 || num == 2 || num == 7 || num == 8 || num == 9 ||
			    num == 133 || num == 777;
		return !fg && !says && (!whole || memchr(p, '?', n));
	}
	if (f->kind == 'P') {
		/* tmux's passthrough: anything, to the terminal outside (after
		 * parameters too, which tmux keeps apart). */
		size_t body = dcs_body(p, n, true);
		if (n - body >= 5 ? memcmp(p + body, "tmux;", 5) == 0 : !whole)
			return true;
		/* Settings, capabilities and resources asked for (DECRQSS,
		 * XTGETTCAP, XTGETXRES). */
		body = dcs_body(p, n, false);
		return !fg && n - body >= 2 &&
		       (memcmp(p + body, "$q", 2) == 0 || memcmp(p + body, "+q", 2) == 0 ||
			memcmp(p + body, "+Q", 2) == 0);
	}
	if (f->kind == '_' && n && p[0] == 'G') {
		/* kitty's graphics: an image read by the terminal from a file,
		 * a temporary file or shared memory of its own (a path of the
		 * user's); a question out of the foreground. Keys not ended
		 * within the head: one may be t=f. */
		const char *semi = memchr(p, ';', n);
		if (!semi && !whole)
			return true;
		size_t keys = semi ? (size_t)(semi - p) : n;
		for (size_t i = 1; i + 3 <= keys; i++)
			if ((p[i - 1] == 'G' || p[i - 1] == ',') && p[i] == 't' &&
			    p[i + 1] == '=' &&
			    (p[i + 2] == 'f' || p[i + 2] == 't' || p[i + 2] == 's'))
				return true;
		return !fg && has(p, keys, "a=q");
	}
	return false;
}

/* Whether the byte just held makes HEAD tmux's passthrough ("tmux;" after
 * the DCS's parameters and intermediates, C0 controls ignored). */
static bool tmux_begins(const struct cordon_ttyfilter *f)
{
	if (f->kind != 'P' || f->head[f->n - 1] != ';')
		return false;
	char p[CORDON_TTYFILTER_HEAD] = {0};
	size_t n = 0;
	for (size_t k = 2; k < f->n; k++)
		if ((unsigned char)f->head[k] >= 0x20)
			p[n++] = f->head[k];
	size_t body = dcs_body(p, n, true);
	return n - body == 5 && memcmp(p + body, "tmux;", 5) == 0;
}

/* The string judged (its terminator, if any, is TERM, TERM_N bytes). */
static void string_end(struct cordon_ttyfilter *f, char *out, size_t *o, bool fg, const char *term,
		       size_t term_n)
{
	if (!string_dropped(f, fg, true)) {
		put(out, o, f->head, f->n);
		put(out, o, term, term_n);
	}
	f->n = 0;
	f->state = GROUND;
}

static void escape_begins(struct cordon_ttyfilter *f)
{
	f->head[0] = ESC;
	f->n = 1;
	f->state = ESCAPE;
}

size_t cordon_ttyfilter(struct cordon_ttyfilter *f, const char *in, size_t n, char *out,
			bool foreground)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];
	again:
		switch (f->state) {
		case GROUND:
			if (c == ESC)
				escape_begins(f);
			else if (c == 0xc2)
				f->state = GROUND_C2;
			else
				out[o++] = (char)c;
			break;
		case GROUND_C2: {
			unsigned char kind = c1_kind(c);
			if (!kind) {
				out[o++] = (char)0xc2;
				f->state = GROUND;
				goto again;
			}
			f->head[0] = (char)0xc2;
			f->head[1] = (char)c;
			f->n = 2;
			f->kind = kind;
			f->esc = f->c2 = false;
			f->state = kind == '[' ? CSI : STRING;
			break;
		}
		case ESCAPE:
			if (c == '[' || c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X') {
				f->head[f->n++] = (char)c;
				f->kind = c;
				f->esc = f->c2 = false;
				f->state = c == '[' ? CSI : STRING;
			} else if (c == ESC) {
				out[o++] = ESC; /* (an ESC alone, then another) */
			} else if (c == CAN || c == SUB || c >= 0x80) {
				/* (The terminal drops the ESC: what follows, a C1
				 * control's UTF-8 bytes too, is looked at afresh.) */
				out[o++] = ESC;
				f->n = 0;
				f->state = GROUND;
				goto again;
			} else if (c < 0x20) {
				/* Done, and the terminal is still in the escape
				 * (tmux took ESC BEL ] as an OSC): the control goes
				 * out, the ESC stays held. */
				out[o++] = (char)c;
			} else if (c == 0x7f) {
				/* (Ignored there, as terminals do.) */
			} else {
				/* DECID: the terminal types what it is, as for
				 * CSI c. */
				if (c != 'Z' || foreground) {
					out[o++] = ESC;
					out[o++] = (char)c;
				}
				f->n = 0;
				f->state = GROUND;
			}
			break;
		case CSI:
			if (c >= 0x40 && c <= 0x7e) {
				f->head[f->n++] = (char)c;
				if (!csi_dropped(f, foreground))
					put(out, &o, f->head, f->n);
				f->n = 0;
				f->state = GROUND;
			} else if (c >= 0x20 && c <= 0x3f) {
				if (f->n < sizeof(f->head) - 1)
					f->head[f->n++] = (char)c;
				else
					f->state = CSI_DROP;
			} else if (c == ESC) {
				escape_begins(f); /* (the terminal drops what came) */
			} else if (c == CAN || c == SUB) {
				out[o++] = (char)c;
				f->n = 0;
				f->state = GROUND;
			} else if (c < 0x20) {
				out[o++] = (char)c; /* done in the middle, as terminals do */
			} else if (c >= 0x80) {
				f->n = 0;
				f->state = GROUND;
				goto again;
			}
			break; /* (DEL: ignored, as terminals do) */
		case CSI_DROP:
			if (c == ESC) {
				escape_begins(f);
			} else if ((c >= 0x40 && c <= 0x7e) || c == CAN || c == SUB) {
				f->n = 0; /* (its end, or what ends it) */
				f->state = GROUND;
			} else if (c >= 0x80) {
				/* (As in CSI: looked at afresh, a C1 control's
				 * UTF-8 bytes too.) */
				f->n = 0;
				f->state = GROUND;
				goto again;
			} else if (c < 0x20) {
				out[o++] = (char)c; /* (as in CSI) */
			}
			break;
		case STRING:
			if (f->esc) {
				f->esc = false;
				if (c == '\\') {
					string_end(f, out, &o, foreground, "\x1b\\", 2);
					break;
				}
				/* An ESC ends the string for most terminals, and
				 * the ESC begins anew; for those that go on with the
				 * string (a "?" after ESC ? would be its "?"), it
				 * never began: dropped whole. */
				f->n = 0;
				escape_begins(f);
				goto again;
			}
			if (f->c2) {
				f->c2 = false;
				if (c == 0x9c) {
					string_end(f, out, &o, foreground, "\xc2\x9c", 2);
					break;
				}
				if (c1_kind(c)) {
					/* A C1 control that begins a sequence ends the
					 * string where terminals take C1 controls
					 * anywhere: dropped whole, as for an ESC. */
					f->n = 0;
					f->state = GROUND_C2;
					goto again;
				}
				if (f->n < sizeof(f->head)) {
					f->head[f->n++] = (char)0xc2;
				} else if (string_dropped(f, foreground, false)) {
					f->tmux = f->kind == 'P';
					f->n = 0;
					f->state = STR_DROP;
					goto again;
				} else {
					put(out, &o, f->head, f->n);
					out[o++] = (char)0xc2;
					f->n = 0;
					f->state = STR_PASS;
					goto again;
				}
			}
			if (c == BEL) {
				string_end(f, out, &o, foreground, "\a", 1);
			} else if (c == CAN || c == SUB) {
				/* (The string cancelled: dropped, as for an ESC.) */
				out[o++] = (char)c;
				f->n = 0;
				f->state = GROUND;
			} else if (c == ESC) {
				f->esc = true;
			} else if (c == 0xc2) {
				f->c2 = true;
			} else if (f->n < sizeof(f->head) - 1) {
				f->head[f->n++] = (char)c; /* (room kept for a 0xC2) */
				/* tmux's passthrough, dropped whole: its ESCs are
				 * doubled, and only ESC \ ends it. */
				if (tmux_begins(f)) {
					f->tmux = true;
					f->n = 0;
					f->state = STR_DROP;
				}
			} else if (string_dropped(f, foreground, false)) {
				/* (A DCS too long to judge may be tmux's
				 * passthrough: dropped as one, to its ESC \.) */
				f->tmux = f->kind == 'P';
				f->n = 0;
				f->state = STR_DROP;
			} else {
				put(out, &o, f->head, f->n);
				f->n = 0;
				f->state = STR_PASS;
				goto again;
			}
			break;
		case STR_PASS:
		case STR_DROP: {
			bool pass = f->state == STR_PASS;
			if (f->esc) {
				f->esc = false;
				if (c == ESC && f->tmux)
					break; /* (an ESC passed through) */
				f->tmux = false;
				if (c == '\\') {
					if (pass)
						put(out, &o, "\x1b\\", 2);
					f->state = GROUND;
					break;
				}
				escape_begins(f);
				goto again;
			}
			if (f->c2) {
				f->c2 = false;
				if (c == 0x9c) {
					if (pass)
						put(out, &o, "\xc2\x9c", 2);
					f->state = GROUND;
					break;
				}
				if (c1_kind(c)) {
					/* (Ends it, as in STRING: what was passed of
					 * it cannot ask now; what was dropped never
					 * began.) */
					f->tmux = false;
					f->state = GROUND_C2;
					goto again;
				}
				if (pass)
					out[o++] = (char)0xc2;
			}
			if ((c == BEL && !f->tmux) || c == CAN || c == SUB) {
				if (pass)
					out[o++] = (char)c;
				f->tmux = false;
				f->state = GROUND;
			} else if (c == ESC) {
				f->esc = true;
			} else if (c == 0xc2) {
				f->c2 = true;
			} else if (pass) {
				out[o++] = (char)c;
			}
			break;
		}
		default:
			f->state = GROUND;
			break;
		}
	}
	return o;
}
