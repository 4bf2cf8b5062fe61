// SPDX-License-Identifier: GPL-2.0
/*
 * execpages NAME OPTIONS N M K [LINE...]: count a command from its exec,
 * as a tool does (perf stat -- COMMAND): fork, the child waits, the tool
 * makes the counter on the child, the child execs.
 *
 * Forks a child that waits on a pipe. Writes "add NAME
 * page-faults,pid=CHILD,OPTIONS" to perfkmod's control file, then each
 * LINE (more commands, e.g. "disable NAME"), and lets the child go. The
 * child touches N fresh pages, which an enable_on_exec counter must not
 * count, and execs this program again, which touches M fresh pages, forks
 * a grandchild that touches K fresh pages, waits for it, tells the parent
 * and waits to be let go once more, so that the counter can be read while
 * the task lives. The parent prints the counter's stat file at each step:
 *
 *	pid CHILD
 *	before VALUE ENABLED RUNNING SCALED STATE	(made, not yet let go)
 *	running ...					(after the exec's work)
 *	after ...					(the child exited)
 *
 * and exits 0 once the child did; the counter is left for the caller to
 * read and delete. Nothing waits for time: pipes order each step.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define DBG "/sys/kernel/debug/perfkmod"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* @n fresh anonymous small pages, a byte written to each: n faults. */
static void touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char *mem;

	mem = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	/* a transparent huge page would take 512 pages in one fault */
	if (madvise(mem, n * page, MADV_NOHUGEPAGE))
		perror("madvise");
	for (i = 0; i < n; i++)
		mem[i * page] = 1;
}

static void put_byte(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("write to a pipe");
}

static void get_byte(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1) {
		fprintf(stderr, "execpages: the other side went away\n");
		exit(1);
	}
}

/* One write(2) of @line to control, or exit saying what went wrong. */
static void ctl(const char *line)
{
	int fd = open(DBG "/control", O_WRONLY);

	if (fd < 0)
		die(DBG "/control");
	if (write(fd, line, strlen(line)) < 0) {
		fprintf(stderr, "execpages: \"%s\": %s\n", line, strerror(errno));
		exit(1);
	}
	close(fd);
}

/* "WHAT" and the counter's stat line. */
static void show(const char *what, const char *name)
{
	char path[512], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), DBG "/counters/%s/stat", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		die(path);
	buf[n] = '\0';
	close(fd);
	printf("%s %s", what, buf);
}

/* The exec'd program: M pages, a grandchild of K, then the two steps. */
static int after_exec(long m, long k, int ready, int go)
{
	pid_t pid;
	int status;

	touch_pages(m);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		touch_pages(k);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("the grandchild");
	put_byte(ready);
	get_byte(go);
	return 0;
}

int main(int argc, char **argv)
{
	int go[2], ready[2], status, i;
	char line[1024], fds[2][16];
	long n;
	pid_t pid;

	if (argc == 6 && !strcmp(argv[1], "--after"))
		return after_exec(atol(argv[2]), atol(argv[3]), atoi(argv[4]),
				  atoi(argv[5]));
	if (argc < 6) {
		fprintf(stderr, "usage: execpages NAME OPTIONS N M K [LINE...]\n");
		return 2;
	}
	n = atol(argv[3]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(go) || pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(go[1]);
		close(ready[0]);
		get_byte(go[0]);
		touch_pages(n);
		snprintf(fds[0], sizeof(fds[0]), "%d", ready[1]);
		snprintf(fds[1], sizeof(fds[1]), "%d", go[0]);
		execl("/proc/self/exe", "execpages", "--after", argv[4],
		      argv[5], fds[0], fds[1], (char *)NULL);
		die("exec");
	}
	close(go[0]);
	close(ready[1]);
	printf("pid %d\n", pid);
	snprintf(line, sizeof(line), "add %s page-faults,pid=%d,%s", argv[1],
		 pid, argv[2]);
	ctl(line);
	for (i = 6; i < argc; i++)
		ctl(argv[i]);
	show("before", argv[1]);
	put_byte(go[1]);
	get_byte(ready[0]);
	show("running", argv[1]);
	put_byte(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	show("after", argv[1]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "execpages: the child failed (status %#x)\n",
			status);
		return 1;
	}
	return 0;
}
