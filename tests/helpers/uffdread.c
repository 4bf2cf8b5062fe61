// SPDX-License-Identifier: GPL-2.0
/*
 * uffdread FILE FAULTED RELEASE: one read(2) of FILE that stalls in the
 * kernel's copy to user space until it is released.
 *
 * The read goes into a fresh anonymous page registered with a userfaultfd
 * for missing pages. The userfaultfd is made without UFFD_USER_MODE_ONLY
 * (root may), so that the fault the kernel takes in copy_to_user() waits
 * for this program too, as a read into a FUSE-backed mapping would wait
 * for its server. A child process takes the fault's message, creates the
 * file FAULTED, waits for the file RELEASE to exist (or MAX_STALL seconds,
 * so that it never outlives a test that failed) and resolves the fault
 * with a zeroed page; the read goes on. Prints "read N" (the bytes read),
 * then what was read, or "read ERRNO" (strerror), and exits 0.
 *
 * uffdread --probe: exits 0 when such a userfaultfd can be made here;
 * else prints "unsupported: WHY" and exits 2, as uffdread does.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_STALL	300	/* seconds */

static long page;

/* A userfaultfd registered over a new page at *@mem; exits 2 if none. */
static int uffd_page(char **mem)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int uffd = syscall(__NR_userfaultfd, O_CLOEXEC);

	if (uffd < 0) {
		printf("unsupported: userfaultfd: %s\n", strerror(errno));
		exit(2);
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		printf("unsupported: UFFDIO_API: %s\n", strerror(errno));
		exit(2);
	}
	*mem = mmap(NULL, page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*mem == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	reg.range.start = (unsigned long)*mem;
	reg.range.len = page;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		printf("unsupported: UFFDIO_REGISTER: %s\n", strerror(errno));
		exit(2);
	}
	return uffd;
}

static void create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0 || close(fd)) {
		perror(path);
		exit(1);
	}
}

/*
 * The child: take the fault, say so, wait for @release, resolve it. The
 * userfaultfd's mm is the parent's, which UFFDIO_COPY fills.
 */
static void pager(int uffd, const char *faulted, const char *release)
{
	struct uffdio_copy copy = { .len = page };
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	time_t end = time(NULL) + MAX_STALL;
	struct uffd_msg msg;
	char *zero = calloc(1, page);

	if (!zero || poll(&pfd, 1, -1) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		perror("uffdread: no page fault");
		exit(1);
	}
	create(faulted);
	while (access(release, F_OK) && time(NULL) < end)
		usleep(10000);
	copy.dst = msg.arg.pagefault.address & ~(page - 1);
	copy.src = (unsigned long)zero;
	if (ioctl(uffd, UFFDIO_COPY, &copy)) {
		perror("UFFDIO_COPY");
		exit(1);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	int fd, uffd, status;
	char *mem;
	ssize_t n;
	pid_t pid;

	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--probe")) {
		uffd_page(&mem);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: uffdread FILE FAULTED RELEASE | --probe\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	uffd = uffd_page(&mem);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid)
		pager(uffd, argv[2], argv[3]);
	n = read(fd, mem, page);
	if (n < 0)
		printf("read %s\n", strerror(errno));
	else
		printf("read %zd\n%.*s", n, (int)n, mem);
	/* a read that never faulted leaves the child waiting for a fault */
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 0;
}
