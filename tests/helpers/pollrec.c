// SPDX-License-Identifier: GPL-2.0
/*
 * pollrec: a reader of a series' records files, for test-poll.sh.
 *
 *   pollrec wait FILE   opens FILE, prints "polling", sleeps in ppoll()
 *                       with no timeout, then prints what woke it ("in",
 *                       "hup", "err", space-separated) and, for a
 *                       records.bin woken readable, the records it then
 *                       read, as dump prints them, and "records N", their
 *                       number
 *   pollrec dump FILE   reads FILE, a records.bin, to its end: checks its
 *                       header (perfkmod_series.h's, version 1) and prints
 *                       each record as the text file gives it: "TIME CPU
 *                       VALUE..." ("-" for an error) and, of an
 *                       event-driven series, "IP PID TID MODE"
 *
 * Exits 1 on any error, saying it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC		0x706b7372U
#define VERSION		1
#define TRIGGERED	1
#define REC_TRIGGERED	1
#define REC_USER	2
#define COUNTERS	8

struct header {
	uint32_t magic;
	uint16_t version;
	uint16_t header_size;
	uint32_t record_size;
	uint16_t nr_counters;
	uint16_t flags;
};

struct record {
	uint64_t time;
	uint32_t cpu;
	uint16_t nr_values;
	uint16_t errors;
	uint64_t values[COUNTERS];
	uint64_t ip;
	uint32_t pid;
	uint32_t tid;
	uint32_t flags;
	uint32_t reserved;
};

static char buf[sizeof(struct header) + 256 * sizeof(struct record)];

static void fail(const char *what)
{
	fprintf(stderr, "pollrec: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void print(const struct record *r)
{
	unsigned int i;

	printf("%llu %u", (unsigned long long)r->time, r->cpu);
	for (i = 0; i < r->nr_values; i++) {
		if (r->errors & (1U << i))
			printf(" -");
		else
			printf(" %llu", (unsigned long long)r->values[i]);
	}
	if (r->flags & REC_TRIGGERED) {
		if (r->ip)
			printf(" %#llx", (unsigned long long)r->ip);
		else
			printf(" 0");
		printf(" %u %u %s", r->pid, r->tid,
		       r->flags & REC_USER ? "user" : "kernel");
	}
	printf("\n");
}

/* Read FD to its end, printing the records if PRINT_THEM; their number. */
static long drain(int fd, int print_them, int *header_read)
{
	struct header h;
	struct record r;
	long n = 0;
	size_t off;
	ssize_t got;

	for (;;) {
		got = read(fd, buf, sizeof(buf));
		if (got < 0)
			fail("read");
		if (!got)
			return n;
		off = 0;
		if (!*header_read) {
			if ((size_t)got < sizeof(h)) {
				fprintf(stderr, "pollrec: a short header\n");
				exit(1);
			}
			memcpy(&h, buf, sizeof(h));
			/*
			 * The test pins version 1's layout, the sizes too: a
			 * reader of later kernels skips header_size and steps
			 * by record_size (perfkstat's record.c does).
			 */
			if (h.magic != MAGIC || h.version != VERSION ||
			    h.header_size != sizeof(h) ||
			    h.record_size != sizeof(r) || !h.nr_counters ||
			    h.nr_counters > COUNTERS) {
				fprintf(stderr, "pollrec: header %#x %u %u %u %u %u\n",
					h.magic, h.version, h.header_size,
					h.record_size, h.nr_counters, h.flags);
				exit(1);
			}
			*header_read = 1;
			off = sizeof(h);
		}
		if ((got - off) % sizeof(r)) {
			fprintf(stderr, "pollrec: a read of %zd bytes\n", got);
			exit(1);
		}
		for (; off < (size_t)got; off += sizeof(r)) {
			memcpy(&r, buf + off, sizeof(r));
			if (r.nr_values != h.nr_counters ||
			    !(r.flags & REC_TRIGGERED) != !(h.flags & TRIGGERED)) {
				fprintf(stderr, "pollrec: a record of %u values, flags %#x\n",
					r.nr_values, r.flags);
				exit(1);
			}
			if (print_them)
				print(&r);
			n++;
		}
	}
}

int main(int argc, char **argv)
{
	struct pollfd p = { .events = POLLIN };
	int header_read = 0;
	size_t len;

	if (argc != 3 || (strcmp(argv[1], "wait") && strcmp(argv[1], "dump"))) {
		fprintf(stderr, "usage: pollrec wait|dump FILE\n");
		return 2;
	}
	p.fd = open(argv[2], O_RDONLY);
	if (p.fd < 0)
		fail(argv[2]);
	if (!strcmp(argv[1], "dump")) {
		drain(p.fd, 1, &header_read);
		return 0;
	}
	printf("polling\n");
	fflush(stdout);
	while (ppoll(&p, 1, NULL, NULL) < 0)
		if (errno != EINTR)
			fail("ppoll");
	printf("%s%s%s\n", p.revents & POLLIN ? "in " : "",
	       p.revents & POLLHUP ? "hup " : "",
	       p.revents & POLLERR ? "err" : "");
	len = strlen(argv[2]);
	if ((p.revents & POLLIN) && !(p.revents & POLLHUP) && len > 4 &&
	    !strcmp(argv[2] + len - 4, ".bin"))
		printf("records %ld\n", drain(p.fd, 1, &header_read));
	return 0;
}
