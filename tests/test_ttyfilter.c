/* The filter of what a session writes to the user's terminal
 * (shim/linux/ttyfilter.h): what reaches past the terminal is dropped,
 * questions too out of the foreground, and everything else passes byte
 * for byte, however the writes cut it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/ttyfilter.h"

/* IN through a new filter, written in pieces of STEP bytes (0: at once):
 * what comes out, malloc'd and NUL-terminated. */
static char *filtered(const char *in, size_t n, bool fg, size_t step)
{
	struct cordon_ttyfilter f;
	cordon_ttyfilter_init(&f);
	char *out = malloc(n + CORDON_TTYFILTER_HEAD + 8);
	char *piece = malloc((step ? step : n) + CORDON_TTYFILTER_HEAD + 8);
	cr_assert(out && piece);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t k = step && n - i > step ? step : n - i;
		size_t got = cordon_ttyfilter(&f, in + i, k, piece, fg);
		cr_assert_leq(got, k + CORDON_TTYFILTER_HEAD + 4);
		memcpy(out + o, piece, got);
		o += got;
		i += k;
	}
	out[o] = '\0';
	free(piece);
	return out;
}

/* IN comes out as WANT, written at once and one byte at a time (and in
 * pieces of 3 and 7: a sequence cut anywhere). */
static void expect_out(const char *in, bool fg, const char *want)
{
	static const size_t steps[] = {0, 1, 3, 7};
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		char *got = filtered(in, strlen(in), fg, steps[s]);
		cr_expect_str_eq(got, want, "in pieces of %zu (fg %d): %s", steps[s], fg, in);
		free(got);
	}
}

static void passes(const char *in, bool fg)
{
	expect_out(in, fg, in);
}

Test(ttyfilter, text_and_everyday_sequences_pass_unchanged)
{
	for (int fg = 0; fg < 2; fg++) {
		passes("plain text\r\nand more\r\n", fg);
		passes("caf\xc3\xa9 \xc2\xb0 \xc2\xa3 \xe2\x82\xac \xf0\x9f\x98\x80", fg);
		passes("\x1b[1;31mred\x1b[0m \x1b[2J\x1b[H\x1b[?1049h\x1b[?25l", fg);
		passes("\x1b]0;title?\x07\x1b]2;a title\x1b\\", fg);
		passes("\x1b]8;;https://example.com/?q=1\x1b\\link\x1b]8;;\x1b\\", fg);
		passes("\x1b]52;c;aGVsbG8=\x07", fg); /* setting the clipboard */
		passes("\x1b(B\x1b)0\x1b"
		       "7\x1b"
		       "8\x1b=\x1b>",
		       fg);
		passes("\x1b_Gf=100,t=d,a=T;iVBORw0KGgo=\x1b\\", fg);
		passes("\x1bP1;1;1q#0;2;0;0;0#0!10~-\x1b\\", fg); /* sixel */
		passes("\xc2\x9b"
		       "1m bold",
		       fg);
	}
	/* In the foreground, questions go to the session. */
	passes("\x1b[6n\x1b[c\x1b[>c\x1b[18t\x1b[?2026$p\x1b]11;?\x07\x1bP$qm\x1b\\", true);
}

Test(ttyfilter, what_reaches_past_the_terminal_is_dropped)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1b]52;c;?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b]52;;?\x1b\\b", fg, "ab");
		expect_out("a\xc2\x9d"
			   "52;p;?\xc2\x9c"
			   "b",
			   fg, "ab");
		expect_out("a\x1b]5522;type=read\x1b\\b", fg, "ab");
		expect_out("a\x1b]5113;ac=send;id=x\x1b\\b", fg, "ab");
		expect_out("a\x1b]1337;File=name=eA==;inline=0:aGk=\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b_Ga=T,t=f;L2V0Yy9zaGFkb3c=\x1b\\b", fg, "ab");
		expect_out("a\x1b_Gt=s,a=T;eA==\x1b\\b", fg, "ab");
		expect_out("a\x1bPtmux;\x1b\x1b]52;c;?\x07\x1b\\b", fg, "ab");
		expect_out("a\x1b[1;1;5;5*yb", fg, "ab"); /* DECRQCRA */
	}
}

Test(ttyfilter, questions_out_of_the_foreground_are_dropped)
{
	expect_out("a\x1b[6nb", false, "ab");
	expect_out("a\x1b[?6nb", false, "ab");
	expect_out("a\x1b[cb\x1b[>0c", false, "ab");
	expect_out("a\x1b[21tb", false, "ab");
	expect_out("a\x1b[?2026$pb", false, "ab");
	expect_out("a\x1b[>qb\x1b[?u", false, "ab");
	expect_out("a\x1b]11;?\x07"
		   "b\x1b]4;1;?\x1b\\",
		   false, "ab");
	expect_out("a\x1bP$qm\x1b\\b\x1bP+q544e\x1b\\", false, "ab");
	expect_out("a\x1b_Gi=1,a=q;\x1b\\b", false, "ab");
	expect_out("a\xc2\x9b"
		   "6nb",
		   false, "ab");
}

Test(ttyfilter, tricks_do_not_slip_a_sequence_through)
{
	/* A C0 control inside a sequence: done as terminals do, the
	 * sequence still judged whole. */
	expect_out("a\x1b[6\bnb", false, "a\bb");
	/* An ESC ends a string: what follows is looked at afresh (and the
	 * string, never ended as it should be, is dropped). */
	expect_out("\x1b]2;t\x1b]52;c;?\x07", true, "");
	expect_out("\x1b_Ga=T,t=d\x07\x1b]52;c;?\x07x", true, "\x1b_Ga=T,t=d\x07x");
	/* An ESC before a C1 control's UTF-8 bytes. */
	expect_out("\x1b\xc2\x9d"
		   "52;c;?\x07x",
		   true, "\x1bx");
	/* A sequence too long for any terminal: dropped. */
	char *longest = malloc(600);
	cr_assert(longest);
	strcpy(longest, "a\x1b[");
	memset(longest + 3, '1', 500);
	strcpy(longest + 503, "nb");
	expect_out(longest, false, "ab");
	free(longest);
	/* A long string is judged on its head and passed or dropped whole. */
	size_t big = 20000;
	char *set = malloc(big + 32), *ask = malloc(big + 32);
	cr_assert(set && ask);
	strcpy(set, "\x1b]52;c;");
	memset(set + 7, 'A', big);
	strcpy(set + 7 + big, "\x07");
	passes(set, false);
	strcpy(ask, "\x1b]1337;File=");
	memset(ask + 12, 'A', big);
	strcpy(ask + 12 + big, "\x07z");
	expect_out(ask, true, "z");
	free(set), free(ask);
}

/* A C0 control or DEL after an ESC: the terminal does the control (or
 * ignores the DEL) and is still in its escape, so the ESC and the byte
 * after them are one sequence (tmux took ESC BEL ] 2 as OSC 2). */
Test(ttyfilter, an_escape_goes_on_after_a_control_or_del)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1b\x07]52;c;?\x07"
			   "b",
			   fg,
			   "a\x07"
			   "b");
		expect_out("a\x1b\r\n]52;c;?\x07"
			   "b",
			   fg, "a\r\nb");
		expect_out("a\x1b\x7f]52;c;?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b\x07_Ga=T,t=f;eA==\x1b\\b", fg,
			   "a\x07"
			   "b");
	}
	/* (The ESC is held, not lost: what it begins passes.) */
	expect_out("\x1b\x07[1m", false, "\x07\x1b[1m");
	expect_out("\x1b\x7f"
		   "7",
		   false,
		   "\x1b"
		   "7");
	/* CAN and SUB still end it. */
	expect_out("\x1b\x18]2;t\x07", false, "\x1b\x18]2;t\x07");
}

/* C0 controls inside a string are ignored by terminals (tmux read
 * ESC ] ^A 2 as OSC 2): judged without them. */
Test(ttyfilter, controls_inside_a_string_do_not_hide_it)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1b]5\x01"
			   "2;c;?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b]52;c\x01;\x02?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b_G\x01t=f;eA==\x1b\\b", fg, "ab");
		expect_out("a\x1bPt\x0emux;\x1b\x1b]52;c;?\x07\x1b\\b", fg, "ab");
	}
	expect_out("a\x1b]1\x01"
		   "1;?\x07"
		   "b",
		   false, "ab");
}

static char *repeated(const char *pre, const char *part, int times, const char *post)
{
	char *s = malloc(strlen(pre) + strlen(part) * (size_t)times + strlen(post) + 1);
	cr_assert(s);
	strcpy(s, pre);
	for (int i = 0; i < times; i++)
		strcat(s, part);
	strcat(s, post);
	return s;
}

/* What the filter judges by lies past its head: a number of 300 digits
 * (leading zeros), a list of keys longer than the head, an OSC number that
 * overflows into another in the terminal (tmux read 4294967298 as 2). */
Test(ttyfilter, a_head_too_long_to_judge_is_dropped)
{
	for (int fg = 0; fg < 2; fg++) {
		char *s = repeated("a\x1b]", "0", 300,
				   "52;c;?\x07"
				   "b");
		expect_out(s, fg, "ab");
		free(s);
		s = repeated("a\x1b_G", "a=T,", 80, "t=f;L2V0Yy9wYXNzd2Q=\x1b\\b");
		expect_out(s, fg, "ab");
		free(s);
		s = repeated("a\x1b]52;", "c", 300,
			     ";?\x07"
			     "b");
		expect_out(s, fg, "ab");
		free(s);
		s = repeated("a\x1bP", "1;", 200, "tmux;\x1b\x1b]52;c;?\x07\x1b\\b");
		expect_out(s, fg, "ab");
		free(s);
		expect_out("a\x1b]4294967348;c;?\x07"
			   "b",
			   fg, "ab");
	}
	/* Out of the foreground, a long list whose end asks. */
	char *s = repeated("a\x1b]4;", "1;rgb:00/00/00;", 40,
			   "2;?\x07"
			   "b");
	expect_out(s, false, "ab");
	free(s);
	/* A long title, a long link, a long image: passed whole. */
	s = repeated("\x1b]0;", "title ", 100, "\x07");
	passes(s, false);
	free(s);
	s = repeated("\x1b]8;;https://example.com/", "x", 400, "\x1b\\link\x1b]8;;\x1b\\");
	passes(s, false);
	free(s);
	s = repeated("\x1b_Gf=100,a=T;", "QUFB", 200, "\x1b\\");
	passes(s, false);
	free(s);
}

/* Parameters before a DCS's body: tmux still passes on "tmux;" after them
 * (its parameters are kept apart from the string). */
Test(ttyfilter, parameters_do_not_hide_tmux_passthrough)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1bP1tmux;\x1b\x1b]52;c;?\x07\x1b\\b", fg, "ab");
		expect_out("a\x1bP0;1$tmux;x\x1b\\b", fg, "ab");
		expect_out("a\xc2\x90"
			   "2tmux;\x1b\x1b]52;c;?\x07\x1b\\b",
			   fg, "ab");
	}
	passes("\x1bP0;1;0q#0;2;0;0;0#0!10~-\x1b\\", false); /* sixel */
}

/* Questions that were missing: DECID, DECRQPSR, DECRQTSR, XTQMODKEYS,
 * XTREPORTSGR, DECREQTPARM, DECRQDE, DECRQUPSS, XTGETXRES. */
Test(ttyfilter, more_questions_out_of_the_foreground_are_dropped)
{
	expect_out("a\x1bZ"
		   "b",
		   false, "ab");
	expect_out("a\x1b[1$wb\x1b[1$u", false, "ab");
	expect_out("a\x1b[?4mb\x1b[1;1;2;2#|", false, "ab");
	expect_out("a\x1b[0xb\x1b[\"v\x1b[&u", false, "ab");
	expect_out("a\x1bP+Q666f6e74\x1b\\b", false, "ab");
	/* In the foreground they go to the session; and what only looks
	 * like them passes. */
	passes("\x1bZ\x1b[1$w\x1b[?4m\x1b[0x", true);
	passes("\x1b[2*x\x1b[1;1;2;2;0$x\x1b[1;2;3;4;5$v", false);
}

/* vim pushes and pops the title (CSI 22;0t, 23;0t) in the background as
 * well: only the window operations that report are dropped. */
Test(ttyfilter, window_operations_that_ask_nothing_pass)
{
	passes("\x1b[22;0;0t\x1b[23;0;0t\x1b[8;24;80t\x1b[>4;2m", false);
	expect_out("a\x1b[14tb\x1b[21t\x1b[13;2t\x1b[tz\x1b[18t", false, "abz");
}

/* A string ended by anything but its terminator is dropped whole: a
 * terminal that goes on with it after an ESC, CAN or SUB would read the
 * "?" that follows as its own (ESC ] 52;c; ESC ? BEL). And a C1 control
 * that begins a sequence ends it, where terminals take C1 anywhere. */
Test(ttyfilter, a_string_not_ended_by_its_terminator_is_dropped)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1b]52;c;\x1b?\x07"
			   "b",
			   fg,
			   "a\x1b?\x07"
			   "b");
		expect_out("a\x1b]52;c;\x18?\x07"
			   "b",
			   fg,
			   "a\x18?\x07"
			   "b");
		expect_out("a\x1b]52;c;\x1a?\x07"
			   "b",
			   fg,
			   "a\x1a?\x07"
			   "b");
		expect_out("a\x1b]0;t\xc2\x9d"
			   "52;c;?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b_Gf=100;eA==\xc2\x9b"
			   "6n"
			   "b",
			   true,
			   "a\xc2\x9b"
			   "6nb");
	}
	/* After a long string passed, a C1 control still begins a sequence
	 * of its own. */
	char *s = malloc(700);
	cr_assert(s);
	strcpy(s, "\x1b]0;");
	memset(s + 4, 't', 400);
	strcpy(s + 404, "\xc2\x9d"
			"52;c;?\x07z");
	char *want = strndup(s, 404);
	strcat(want = realloc(want, 406), "z");
	expect_out(s, true, want);
	free(s), free(want);
	/* Text with UTF-8 in a title passes. */
	passes("\x1b]0;caf\xc3\xa9 \xc2\xb0 \xc2\xa0\x07", false);
}

/* After a control sequence too long to keep, a C1 control's UTF-8 bytes
 * still begin a sequence (they were swallowed, the C2 with them), and
 * controls in it are still done. And OSC 50, iTerm2's 1337 as it was
 * first numbered (File= downloads), is dropped. */
Test(ttyfilter, after_a_dropped_sequence_and_iterm2_s_old_number)
{
	char *s = repeated("a\x1b[", "1", 300,
			   "\r\xc2\x9d"
			   "52;c;?\x07"
			   "b\xc2\x9d"
			   "0;t\x07");
	expect_out(s, true,
		   "a\rb\xc2\x9d"
		   "0;t\x07");
	free(s);
	for (int fg = 0; fg < 2; fg++)
		expect_out("a\x1b]50;File=name=eA==:aGk=\x07"
			   "b",
			   fg, "ab");
}

/* OSC 52 without its selection ("52;?"), or with a "?" after a first
 * parameter of more than one field: a question for some terminal; the
 * data of a set is base64, with no "?". */
Test(ttyfilter, any_question_in_osc_52_is_dropped)
{
	for (int fg = 0; fg < 2; fg++) {
		expect_out("a\x1b]52;?\x07"
			   "b",
			   fg, "ab");
		expect_out("a\x1b]52;c;x;?\x07"
			   "b",
			   fg, "ab");
		passes("\x1b]52;c;aGk=\x07\x1b]52;;\x07", fg);
	}
}
