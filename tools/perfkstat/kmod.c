// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod's debugfs directory: its control commands and their errors, the
 * counters listed, and the temporary counters and series perfkstat makes,
 * deleted however it ends. They are made on one open control file, set
 * temporary before the first of them: the kernel releases them when that
 * file is closed, which it does for a perfkstat killed by SIGKILL or the
 * OOM killer too. At exit and on a caught signal perfkstat deletes them
 * itself first, in order, series before the counters they read
 * (perfkstat.c has cleanup() run at exit and, by signals.c's
 * on_signal_exit(), in the signal handler: it uses only async-signal-safe
 * calls on prepared strings), then closes the file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkstat.h"

const char *dbg;
static char control_path[PATH_MAX];

/* set_debugfs: the directory, PERFKMOD_DEBUGFS or debugfs' own */
void set_debugfs(void)
{
	dbg = getenv("PERFKMOD_DEBUGFS");
	if (!dbg || !*dbg)
		dbg = "/sys/kernel/debug/perfkmod";
	if (snprintf(control_path, sizeof(control_path), "%s/control", dbg) >=
	    (int)sizeof(control_path))
		die("PERFKMOD_DEBUGFS: too long");
}

static const char nodir[] =
	"no such directory (is perfkmod loaded, debugfs mounted, and are you root?)";

void need_dir(void)
{
	struct stat st;

	if (stat(dbg, &st) < 0 || !S_ISDIR(st.st_mode))
		die("%s: %s", dbg, nodir);
}

char *dbg_path(const char *fmt, ...)
{
	char *rest, *path;
	va_list ap;
	int n;

	va_start(ap, fmt);
	rest = vxasprintf(fmt, ap, &n);
	va_end(ap);
	path = xasprintf("%s/%s", dbg, rest);
	free(rest);
	return path;
}

/* last_error: why the last command failed ("" when it cannot be read) */
char *last_error(void)
{
	char *p = dbg_path("last_error"), *why = read_text(p);

	free(p);
	return why ? why : xstrdup("");
}

/*
 * The open control file the temporaries are made on, set temporary (-1
 * until the first temporary, and after release()). Opened and closed with
 * every signal blocked; written by a signal handler's cleanup() too.
 */
static int temp_fd = -1;

/*
 * write_control: CMD and a newline in one write, on the temporaries'
 * control file if it is open, else on one opened for it; 0 or -1 with
 * errno
 */
static int write_control(const char *line, size_t n)
{
	int fd = __atomic_load_n(&temp_fd, __ATOMIC_SEQ_CST);
	bool own = fd < 0;
	ssize_t w;
	int err;

	if (own)
		fd = open(control_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = write(fd, line, n);
	err = errno;
	if (own)
		close(fd);
	if (w == (ssize_t)n)
		return 0;
	errno = w < 0 ? err : EIO;
	return -1;
}

/*
 * open_temp_fd: the temporaries' control file, opened and set temporary
 * before the first of them is made: from then on the kernel releases
 * what perfkstat adds when it ends, however it ends. A module without
 * the temporary command refuses it: the file is closed, and the del
 * lines are all there is. Called with every signal blocked.
 */
static void open_temp_fd(void)
{
	static const char temporary[] = "temporary\n";
	ssize_t len = strlen(temporary);
	int fd;

	if (__atomic_load_n(&temp_fd, __ATOMIC_SEQ_CST) >= 0)
		return;
	fd = open(control_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;	/* the add fails the same way, and says why */
	if (write(fd, temporary, len) != len) {
		close(fd);
		return;
	}
	__atomic_store_n(&temp_fd, fd, __ATOMIC_SEQ_CST);
}

/*
 * forget_temp_fd: in a child of perfkstat's, close its copy of the
 * temporaries' control file, so that only perfkstat's end releases them
 */
void forget_temp_fd(void)
{
	int fd = __atomic_exchange_n(&temp_fd, -1, __ATOMIC_SEQ_CST);

	if (fd >= 0)
		close(fd);
}

static int ctl_errno;

/*
 * ctl_complain_as: say why CMD, the last command ctl() sent, failed: the
 * kernel's reason from last_error when it names this command, with
 * TYPED, what the user typed of it, in its place; else the error of the
 * write. An event refused (TYPED, not CMD) points to perfkstat events.
 */
void ctl_complain_as(const char *cmd, const char *typed)
{
	char *why = last_error(), *msg;
	size_t n = strlen(why), c = strlen(cmd);

	if (ctl_errno == EIO)
		msg = xstrdup(strerror(ctl_errno));
	else
		msg = xasprintf("%s: %s", control_path, strerror(ctl_errno));
	if (n >= c + 2 && !strcmp(why + n - c, cmd) && !strncmp(why + n - c - 2, ": ", 2))
		warn("%.*s%s", (int)(n - c), why, typed);
	else
		warn("%s: %s", cmd, msg);
	/* an event the user typed: where the ones this machine counts are */
	if (typed != cmd && (ctl_errno == EINVAL || ctl_errno == ENOENT ||
			     ctl_errno == EOPNOTSUPP))
		warn("%s: see perfkstat events for what this machine counts", typed);
	free(why);
	free(msg);
}

/* ctl_complain: ctl_complain_as() of CMD itself */
void ctl_complain(const char *cmd)
{
	ctl_complain_as(cmd, cmd);
}

/* ctl: one control command; on failure, unless QUIET, say why. 0 or -1. */
int ctl(const char *cmd, bool quiet)
{
	char *line;
	int rc;

	need_dir();
	line = xasprintf("%s\n", cmd);
	rc = write_control(line, strlen(line));
	ctl_errno = errno;
	free(line);
	if (rc && !quiet)
		ctl_complain(cmd);
	return rc;
}

/*
 * lacks: last_error's WHY says the machine cannot count the event (a
 * kernel without CONFIG_SYMBOLIC_ERRNAME gives numbers).
 */
bool lacks(const char *why)
{
	static const char * const lack[] = { "-ENOENT:", "-EOPNOTSUPP:", "-2:", "-95:" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lack); i++)
		if (!strncmp(why, lack[i], strlen(lack[i])))
			return true;
	return false;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * listing: the counters as add commands, from control; under kernel
 * lockdown, which refuses to open control even for reading, from the
 * read-only spec files (in name order, not creation order).
 */
void listing(struct sbuf *out)
{
	struct dirent **names;
	char *dir, *spec, *text;
	int i, n;

	if (!read_all(control_path, out))
		return;
	dir = dbg_path("counters");
	n = scandir(dir, &names, NULL, by_name);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			spec = xasprintf("%s/%s/spec", dir, names[i]->d_name);
			if (!access(spec, R_OK)) {
				text = read_text(spec);
				sb_printf(out, "add %s %s\n", names[i]->d_name,
					  text ? text : "");
				free(text);
			}
			free(spec);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(dir);
	if (!out->buf)
		sb_add(out, "", 0);
}

/*
 * The temporaries: "del NAME" lines made when a temporary is registered,
 * before it exists (a signal meanwhile leaks nothing; a del of what does
 * not exist fails quietly), deleted in the order registered, on the
 * control file that made them, which is then closed. The files
 * remove_at_exit() names go in reverse order (a directory after its files).
 * The lists change, and are deleted, with every signal blocked: a signal
 * handler's cleanup() finds them whole, or finds them done. The del lines
 * grow by doubling (a -p of many threads makes many temporaries), also
 * with every signal blocked.
 */
#define MAX_FILES 8
#define DEL_LINE 96
static char (*del_lines)[DEL_LINE];
static int ntemps, temps_cap;
static char files[MAX_FILES][PATH_MAX];
static int nfiles;

/* temp_add: register NAME, last or (FIRST) first */
void temp_add(const char *name, bool first)
{
	int n = __atomic_load_n(&ntemps, __ATOMIC_SEQ_CST);
	char line[DEL_LINE], (*grown)[DEL_LINE] = NULL;
	sigset_t old;

	if (snprintf(line, sizeof(line), "del %s\n", name) >= (int)sizeof(line))
		die("%s: name too long", name);
	if (n == temps_cap)
		grown = xmalloc(2 * (temps_cap + 16) * sizeof(*grown));
	block_signals(&old);
	open_temp_fd();
	if (grown) {
		if (n)
			memcpy(grown, del_lines, n * sizeof(*grown));
		free(del_lines);
		del_lines = grown;
		temps_cap = 2 * (temps_cap + 16);
	}
	if (first) {
		memmove(del_lines[1], del_lines[0], n * sizeof(del_lines[0]));
		memcpy(del_lines[0], line, sizeof(line));
	} else {
		memcpy(del_lines[n], line, sizeof(line));
	}
	__atomic_store_n(&ntemps, n + 1, __ATOMIC_SEQ_CST);
	unblock_signals(&old);
}

/* temp_drop_last: the last registered was not made: no del for it */
void temp_drop_last(void)
{
	int n = __atomic_load_n(&ntemps, __ATOMIC_SEQ_CST);

	if (n)
		__atomic_store_n(&ntemps, n - 1, __ATOMIC_SEQ_CST);
}

/*
 * temp_drop: NAME, registered, was not made: no del for it (a del would
 * fail, and leave its error in last_error instead of the reason NAME was
 * refused)
 */
void temp_drop(const char *name)
{
	int n = __atomic_load_n(&ntemps, __ATOMIC_SEQ_CST), i;
	char line[DEL_LINE];
	sigset_t old;

	snprintf(line, sizeof(line), "del %s\n", name);
	block_signals(&old);
	for (i = 0; i < n; i++) {
		if (strcmp(del_lines[i], line))
			continue;
		memmove(del_lines[i], del_lines[i + 1], (n - i - 1) * sizeof(del_lines[0]));
		__atomic_store_n(&ntemps, n - 1, __ATOMIC_SEQ_CST);
		break;
	}
	unblock_signals(&old);
}

/*
 * release: delete the temporaries, all of them whatever signal comes, and
 * close their control file (which releases any the dels missed)
 */
void release(void)
{
	int i, n;
	sigset_t old;

	block_signals(&old);
	n = __atomic_load_n(&ntemps, __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++)
		write_control(del_lines[i], strlen(del_lines[i]));
	__atomic_store_n(&ntemps, 0, __ATOMIC_SEQ_CST);
	forget_temp_fd();
	unblock_signals(&old);
}

void remove_at_exit(const char *path)
{
	int n = __atomic_load_n(&nfiles, __ATOMIC_SEQ_CST);
	sigset_t old;

	if (n == MAX_FILES || strlen(path) >= PATH_MAX)
		die("%s: cannot remove it at exit", path);
	block_signals(&old);
	memcpy(files[n], path, strlen(path) + 1);
	__atomic_store_n(&nfiles, n + 1, __ATOMIC_SEQ_CST);
	unblock_signals(&old);
}

/* keep_at_exit: PATH, of remove_at_exit(), no longer removed */
void keep_at_exit(const char *path)
{
	int n = __atomic_load_n(&nfiles, __ATOMIC_SEQ_CST), i;
	sigset_t old;

	block_signals(&old);
	for (i = n - 1; i >= 0; i--) {
		if (strcmp(files[i], path))
			continue;
		memmove(files[i], files[i + 1], (n - i - 1) * sizeof(files[0]));
		__atomic_store_n(&nfiles, n - 1, __ATOMIC_SEQ_CST);
		break;
	}
	unblock_signals(&old);
}

/* cleanup: the temporaries, then the files; at exit and on a signal */
void cleanup(void)
{
	sigset_t old;
	int n;

	block_signals(&old);
	release();
	n = __atomic_load_n(&nfiles, __ATOMIC_SEQ_CST);
	while (n--)
		if (unlink(files[n]) < 0)
			rmdir(files[n]);
	__atomic_store_n(&nfiles, 0, __ATOMIC_SEQ_CST);
	unblock_signals(&old);
}
