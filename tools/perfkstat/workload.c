// SPDX-License-Identifier: GPL-2.0
/*
 * A command counted from its exec, as perf stat's workload: forked
 * first (with the signals perfkstat was given, see fork_command()),
 * waiting on a pipe while its counters are made on its pid, then let go
 * to exec. An exec that fails says why through a second pipe, closed on a
 * successful exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "perfkstat.h"
#include "workload.h"

pid_t workload_prepare(struct workload *w, char **argv)
{
	int go[2], err[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	w->pid = fork_command();
	if (w->pid) {
		close(go[0]);
		close(err[1]);
		w->go = go[1];
		w->err = err[0];
		return w->pid;
	}
	close(go[1]);
	close(err[0]);
	/* perfkstat ended before it let the command go: nothing to run */
	if (read(go[0], &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(err[1], &e, sizeof(e)) < 0)
		_exit(126);
	_exit(e == ENOENT ? 127 : 126);
}

int workload_start(struct workload *w)
{
	char c = 0;
	ssize_t n;
	int e;

	if (write(w->go, &c, 1) != 1)
		die("starting the command: %s", strerror(errno));
	close(w->go);
	while ((n = read(w->err, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n != sizeof(e))
		e = 0;
	close(w->err);
	return e;
}
