// SPDX-License-Identifier: GPL-2.0
/*
 * Signals, and the commands perfkstat runs.
 *
 * A caught HUP, INT, PIPE, QUIT or TERM ends perfkstat with 128 + the
 * signal after the hook of on_signal_exit() ran (kmod.c's cleanup(), which
 * deletes the temporaries), at once, or, while a command it runs in the
 * foreground is going, when that command ends (as a shell's trap waits
 * for its foreground command). record's SIGINT while it records only ends
 * the recording. A signal ignored when perfkstat starts (nohup, a shell's
 * background job) stays ignored, as a shell's trap leaves it. The handler
 * runs with every signal blocked, so that a second signal cannot cut its
 * cleanup short; the flags are read and written with atomic builtins, as
 * the handler interrupts the main code.
 *
 * A command starts with the dispositions and the signal mask perfkstat
 * was given: an ignored signal stays ignored there too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfkstat.h"

static const int caught[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM };

/* what perfkstat was given: each signal's disposition, and the mask */
static struct sigaction given[ARRAY_SIZE(caught)];
static sigset_t given_mask;
static bool saved;

static int deferring, pending, int_stopping, stopping;

/* what runs before a caught signal ends perfkstat: async-signal-safe */
static void (*exit_hook)(void);

/* on_signal_exit: HOOK runs before a caught signal ends perfkstat */
void on_signal_exit(void (*hook)(void))
{
	exit_hook = hook;
}

/* signal_exit: the hook, then the end, with 128 + SIG */
static __noreturn void signal_exit(int sig)
{
	if (exit_hook)
		exit_hook();
	_exit(128 + sig);
}

/* save_given: note the dispositions and mask, before perfkstat's own */
static void save_given(void)
{
	size_t i;

	if (saved)
		return;
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], NULL, &given[i]);
	sigprocmask(SIG_SETMASK, NULL, &given_mask);
	saved = true;
}

static void on_signal(int sig)
{
	if (sig == SIGINT && __atomic_load_n(&int_stopping, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
		return;
	}
	if (__atomic_load_n(&deferring, __ATOMIC_SEQ_CST)) {
		if (!__atomic_load_n(&pending, __ATOMIC_SEQ_CST))
			__atomic_store_n(&pending, sig, __ATOMIC_SEQ_CST);
		return;
	}
	signal_exit(sig);
}

/* catch_signals: catch HUP, INT and TERM, PIPE if PIPE, QUIT if QUIT */
void catch_signals(bool pipe, bool quit)
{
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	save_given();
	sigfillset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(caught); i++) {
		if ((caught[i] == SIGPIPE && !pipe) || (caught[i] == SIGQUIT && !quit))
			continue;
		if (given[i].sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

/* defer_signals: from ON until off, a signal waits; off acts on it */
void defer_signals(bool on)
{
	int sig;

	__atomic_store_n(&deferring, on, __ATOMIC_SEQ_CST);
	if (on)
		return;
	sig = __atomic_exchange_n(&pending, 0, __ATOMIC_SEQ_CST);
	if (sig)
		signal_exit(sig);
}

void int_stops(bool on)
{
	__atomic_store_n(&int_stopping, on, __ATOMIC_SEQ_CST);
}

bool stop_requested(void)
{
	return __atomic_load_n(&stopping, __ATOMIC_SEQ_CST);
}

/* block_signals: every signal waits from now, the mask before into OLD */
void block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

/* unblock_signals: the mask OLD again; what waited is handled now */
void unblock_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/*
 * fork_command: fork a process that runs as perfkstat's command: in it,
 * the signal dispositions and mask perfkstat was given. Signals are
 * blocked across the fork: a signal to the child before its dispositions
 * are the given ones waits, and no handler of perfkstat's runs in it (to
 * delete the parent's temporaries); it closes its copy of their control
 * file. The child's pid, or 0 in the child.
 */
pid_t fork_command(void)
{
	sigset_t old;
	pid_t pid;
	size_t i;

	save_given();
	flush_stdout();
	fflush(stderr);
	block_signals(&old);
	pid = fork();
	if (pid < 0) {
		unblock_signals(&old);
		die("fork: %s", strerror(errno));
	}
	if (pid) {
		unblock_signals(&old);
		return pid;
	}
	/* perfkstat's temporaries go when perfkstat ends, not its child */
	forget_temp_fd();
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &given[i], NULL);
	sigprocmask(SIG_SETMASK, &given_mask, NULL);
	return 0;
}

/*
 * run_command: start ARGV (searched in PATH) as fork_command() makes it;
 * 127 when it cannot be found, 126 when it cannot be run, as a shell says.
 */
pid_t run_command(char **argv)
{
	pid_t pid = fork_command();
	int err;

	if (pid)
		return pid;
	execvp(argv[0], argv);
	err = errno;
	dprintf(2, ME ": %s: %s\n", argv[0], strerror(err));
	_exit(err == ENOENT ? 127 : 126);
}

/* wait_command: PID's exit status, or 128 + the signal that ended it */
int wait_command(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
