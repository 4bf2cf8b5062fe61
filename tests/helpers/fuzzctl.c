// SPDX-License-Identifier: GPL-2.0
/*
 * fuzzctl N SEED: write N inputs to perfkmod's debugfs control file and
 * check, after every batch, that the module still works and that its
 * counter list is exactly what the accepted commands made.
 *
 * Inputs: random bytes; valid commands; grammar-aware mutations of them
 * (bytes flipped, dropped, doubled, cut short, spliced); overlong names and
 * specs; embedded NULs and newlines; writes of part of a buffer; writes at
 * offsets (pwrite); none that samples faster than 1 kHz (see too_fast()).
 * The model follows the control file's rules: the bytes
 * a write returns are the whole lines it ran, each split on blanks, and
 * only "add NAME SPEC" and "del NAME" change the list.
 *
 * Prints "fuzzctl: N inputs, A accepted, R refused by errno ...", and
 * exits 1 at the first disagreement, saying what it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DBG		"/sys/kernel/debug/perfkmod"
#define MAXNAMES	512
#define BUFSZ		8192
#define BATCH		1000

static char *names[MAXNAMES];	/* the model: names of live counters */
static int nnames;
static unsigned long long rng;
static long accepted, refused[160];

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (unsigned int)(rng >> 33) % n : 0;
}

static int find_name(const char *name)
{
	int i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static void die(const char *what, const char *buf, size_t len)
{
	size_t i;

	fprintf(stderr, "fuzzctl: %s; input (%zu bytes):", what, len);
	for (i = 0; i < len && i < 200; i++)
		fprintf(stderr, " %02x", (unsigned char)buf[i]);
	fprintf(stderr, "\n");
	exit(1);
}

/* Apply one accepted line to the model, as the control file parses it. */
static void apply_line(char *line)
{
	char *words[4], *w, *s = line;
	int n = 0, i;

	while ((w = strsep(&s, " \t"))) {
		if (!*w)
			continue;
		if (n == 4)
			return;
		words[n++] = w;
	}
	if (n == 3 && !strcmp(words[0], "add")) {
		if (find_name(words[1]) >= 0 || nnames == MAXNAMES)
			die("an add of a name that exists, or too many, was accepted",
			    line, strlen(line));
		names[nnames++] = strdup(words[1]);
	} else if (n == 2 && !strcmp(words[0], "del")) {
		i = find_name(words[1]);
		if (i < 0)
			die("a del of a name that does not exist was accepted",
			    line, strlen(line));
		free(names[i]);
		names[i] = names[--nnames];
	}
}

/* The accepted prefix of a write: whole lines, the last maybe unended. */
static void apply(const char *buf, size_t len)
{
	char *copy = malloc(len + 1), *s, *line;

	if (!copy)
		exit(2);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	if (strlen(copy) != len)
		die("a write with a NUL byte in its accepted part", buf, len);
	s = copy;
	while ((line = strsep(&s, "\n")))
		apply_line(line);
	free(copy);
}

/*
 * Specs to start from. No tracepoint=: a mutated id is soon a real one, and
 * id 1 is ftrace's function event, which patches every function of the
 * kernel, for minutes under TCG (a root user may ask for it; a fuzzer
 * should not). The grammar's tracepoint= has its KUnit cases. No
 * cpu-clock,freq= either: "period NAME VALUE" sets a frequency counter's
 * frequency, and the values here are periods, millions.
 */
static const char * const specs[] = {
	"page-faults", "context-switches,cpu=0", "cpu-clock,period=1000000",
	"task-clock,cpu=1", "dummy,disabled", "cs:u", "faults:k,cpu=0",
	"page-faults,freq=100", "minor-faults,inherit,pid=1",
	"cpu-migrations,cpu=0,pinned", "mem:0x1000:w8", "cycles:u",
	"r1c2", "pmu=1,config=0x3", "L1-dcache-load-misses",
	"cpu-clock,period=1000000,freq=10", "bogus", "page-faults,cpu=-1",
};

static const char * const cmds[] = {
	"add", "del", "enable", "disable", "reset", "period",
};

/* A name from the model, or a fresh one. */
static void pick_name(char *out, size_t size)
{
	if (nnames && rnd(2))
		snprintf(out, size, "%s", names[rnd(nnames)]);
	else
		snprintf(out, size, "f%u", rnd(300));
}

/* A command that may well be valid. */
static size_t valid_command(char *buf)
{
	char name[300];
	unsigned int c = rnd(10);

	pick_name(name, sizeof(name));
	/* adds are the costly commands: perf makes events for them */
	if (c < 2 && nnames < 200)
		return sprintf(buf, "add %s %s", name, specs[rnd(sizeof(specs) / sizeof(*specs))]);
	if (c < 7)
		return sprintf(buf, "del %s", name);
	if (c < 9)
		return sprintf(buf, "%s %s", cmds[2 + rnd(3)], name);
	return sprintf(buf, "period %s %u", name, rnd(3) ? 1000000 + rnd(5000000) : 0);
}

/* A mutation of a command: flips, drops, doubles, cuts, NULs, newlines. */
static size_t mutate(char *buf, size_t len)
{
	unsigned int k, n = 1 + rnd(4);
	size_t at;

	for (k = 0; k < n && len; k++) {
		at = rnd(len);
		switch (rnd(8)) {
		case 0:
			buf[at] ^= 1 << rnd(8);
			break;
		case 1:
			memmove(buf + at, buf + at + 1, len - at - 1);
			len--;
			break;
		case 2:
			if (len < BUFSZ / 2) {
				memmove(buf + at + 1, buf + at, len - at);
				len++;
			}
			break;
		case 3:
			len = at;
			break;
		case 4:
			buf[at] = '\0';
			break;
		case 5:
			buf[at] = '\n';
			break;
		case 6:
			buf[at] = " \t,:=/."[rnd(7)];
			break;
		default:
			if (len * 2 < BUFSZ) {
				memcpy(buf + len, buf, len);
				len *= 2;
			}
		}
	}
	return len;
}

/*
 * Whether @buf asks for overflows faster than this machine can take: a
 * period under 1 ms, or more than 1000 a second. cpu-clock at perf's
 * 10 us floor on every CPU is legal, and perf allows it too, but under
 * TCG servicing those timers takes all the time the CPUs have.
 */
static int too_fast(const char *buf, size_t len)
{
	char copy[BUFSZ + 1], *p, *q;
	unsigned long long v;

	memcpy(copy, buf, len);
	copy[len] = '\0';
	for (p = copy; p < copy + len; p++) {
		if (!strncmp(p, "period", 6)) {
			q = p + 6;
			if (*q != '=') {	/* period NAME VALUE */
				q += strspn(q, " \t");
				q += strcspn(q, " \t");
			}
			/* q is the '=' or blank before the value, or the end */
			v = *q ? strtoull(q + 1, NULL, 0) : 0;
			if (v && v < 1000000)
				return 1;
		} else if (!strncmp(p, "freq", 4)) {
			v = p[4] ? strtoull(p + 5, NULL, 0) : 0;
			if (v > 1000)
				return 1;
		}
	}
	return 0;
}

/* One input of one kind, into buf. */
static size_t make_input(char *buf)
{
	size_t len, i;

	switch (rnd(10)) {
	case 0:		/* random bytes */
		len = rnd(600);
		for (i = 0; i < len; i++)
			buf[i] = (char)rnd(256);
		return len;
	case 1:		/* an overlong name or spec */
		len = sprintf(buf, rnd(2) ? "add " : "add x ");
		for (i = 200 + rnd(5000); i && len < BUFSZ - 1; i--)
			buf[len++] = "abcdefgh,=:0123456789"[rnd(21)];
		return len;
	case 2:		/* several commands in one write */
		len = valid_command(buf);
		buf[len++] = '\n';
		return len + valid_command(buf + len);
	case 3:
	case 4:
	case 5:
		return valid_command(buf);
	default:
		len = valid_command(buf);
		return mutate(buf, len);
	}
}

/* The list the control file shows must be the model's. */
static void check_list(void)
{
	static char list[1 << 17];
	char *s = list, *line, *w;
	int fd = open(DBG "/control", O_RDONLY), seen = 0;
	ssize_t n, total = 0;

	if (fd < 0)
		die("control cannot be opened for reading", "", 0);
	while ((n = read(fd, list + total, sizeof(list) - 1 - total)) > 0)
		total += n;
	close(fd);
	if (n < 0)
		die("control cannot be read", "", 0);
	list[total] = '\0';
	while ((line = strsep(&s, "\n"))) {
		if (!*line)
			continue;
		w = strsep(&line, " ");
		if (strcmp(w, "add") || !line)
			die("control lists a line that is not an add command", w, strlen(w));
		w = strsep(&line, " ");
		if (find_name(w) < 0)
			die("control lists a counter no accepted command made", w, strlen(w));
		seen++;
	}
	if (seen != nnames) {
		fprintf(stderr, "fuzzctl: control lists %d counters, the commands made %d\n",
			seen, nnames);
		exit(1);
	}
}

/* The module still works: a counter can be made, read and removed. */
static void check_works(void)
{
	static const char add[] = "add fuzz-probe context-switches,cpu=0";
	static const char del[] = "del fuzz-probe";
	char value[64];
	int fd = open(DBG "/control", O_WRONLY), vfd;

	if (fd < 0 || write(fd, add, strlen(add)) != (ssize_t)strlen(add))
		die("a valid add fails after fuzzing", add, strlen(add));
	vfd = open(DBG "/counters/fuzz-probe/value", O_RDONLY);
	if (vfd < 0 || read(vfd, value, sizeof(value)) <= 0)
		die("a new counter's value cannot be read", add, strlen(add));
	close(vfd);
	if (write(fd, del, strlen(del)) != (ssize_t)strlen(del))
		die("a valid del fails after fuzzing", del, strlen(del));
	close(fd);
}

int main(int argc, char **argv)
{
	static char buf[BUFSZ];
	long n, i, total_refused = 0;
	int fd, e;
	size_t len, part;
	ssize_t ret;

	if (argc != 3) {
		fprintf(stderr, "usage: fuzzctl N SEED\n");
		return 2;
	}
	n = atol(argv[1]);
	rng = strtoull(argv[2], NULL, 0);
	fd = open(DBG "/control", O_WRONLY);
	if (fd < 0) {
		perror(DBG "/control");
		return 2;
	}
	for (i = 1; i <= n; i++) {
		do
			len = make_input(buf);
		while (too_fast(buf, len));
		/* sometimes only part of the buffer, sometimes at an offset */
		part = rnd(8) ? len : rnd(len + 1);
		if (rnd(8))
			ret = write(fd, buf, part);
		else
			ret = pwrite(fd, buf, part, rnd(100000));
		if (ret > (ssize_t)part || (ret == 0 && part))
			die("write returned more than given, or 0", buf, part);
		if (ret > 0) {
			accepted++;
			apply(buf, ret);
		} else if (ret < 0) {
			e = errno;
			if (e == EBADF || e == EIO || e == EFAULT)
				die(strerror(e), buf, part);
			refused[e < 160 ? e : 0]++;
			total_refused++;
		}
		if (!(i % BATCH)) {
			check_list();
			check_works();
			/* keep well under max_counters (256 by default) */
			while (nnames > 150) {
				snprintf(buf, sizeof(buf), "del %s", names[0]);
				if (write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
					die("a del of a listed counter fails", buf, strlen(buf));
				apply(buf, strlen(buf));
			}
		}
	}
	check_list();
	check_works();
	printf("fuzzctl: %ld inputs, %ld accepted, %ld refused:", n, accepted,
	       total_refused);
	for (e = 0; e < 160; e++)
		if (refused[e])
			printf(" %s %ld", strerror(e), refused[e]);
	printf("; %d counters left\n", nnames);
	close(fd);
	return 0;
}
