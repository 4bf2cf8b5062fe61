/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkstat: perfkmod's counters from the command line, the way perf stat
 * shows them. What the parts share: the debugfs directory and its control
 * file, the temporaries deleted however perfkstat ends, and small helpers.
 */
#ifndef PERFKSTAT_H
#define PERFKSTAT_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

/*
 * 128-bit integers: products of two counts, and sums of deltas. GCC and
 * Clang have them on 64-bit targets only, and so perfkstat is built for
 * those alone. (checkpatch.pl knows the two names from ./typedefs.)
 */
#ifndef __SIZEOF_INT128__
#error "perfkstat needs __int128: build it for a 64-bit target"
#endif
typedef unsigned __int128 u128;
typedef __int128 s128;

#define ME "perfkstat"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute((format(printf, a, b)))
#define __noreturn __attribute((noreturn))

/* util.c */
__noreturn __printf(1, 2) void die(const char *fmt, ...);
__printf(1, 2) void warn(const char *fmt, ...);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
__printf(1, 2) char *xasprintf(const char *fmt, ...);
__printf(1, 0) char *vxasprintf(const char *fmt, va_list ap, int *n);

/* a growing buffer of bytes, always NUL-terminated */
struct sbuf {
	char *buf;
	size_t len, cap;
};

void sb_add(struct sbuf *sb, const void *data, size_t n);
__printf(2, 3) void sb_printf(struct sbuf *sb, const char *fmt, ...);
void sb_free(struct sbuf *sb);

int read_all(const char *path, struct sbuf *sb);
char *read_text(const char *path);
char *next_line(char **p);
bool all_digits(const char *s);
int *cpu_list(const char *path, int *n);
bool duration_ns(const char *s, u64 *ns);
bool parse_u64(const char *s, u64 *v);
u64 leading_u64(const char *s);
char *fmt_s128(char *buf, s128 v);
s128 div_round_even(s128 num, s128 den);
u64 mono_ns(void);
void sleep_ns(u64 ns);
bool in_path(const char *prog);
char *dir_of(const char *path);
char *join_args(char **argv, int argc);
void flush_stdout(void);

/*
 * usage.c: the usage (exit status 2), and the manual (0). set_subcmd()
 * names the subcommand running (false if there is none of that name):
 * usage() then shows its usage alone. bad_option() is for an option the
 * subcommand does not know: -h or --help shows its help (help_of(NULL)),
 * anything else perf's "Error: unknown option" and the usage.
 */
bool set_subcmd(const char *name);
bool is_help(const char *arg);
__noreturn void usage(void);
__noreturn void bad_option(const char *arg);
__noreturn void help(void);
__noreturn void help_of(const char *name);
__noreturn void print_version(void);

/* signals.c: what an HUP, INT, PIPE, QUIT or TERM does; a command run */
void on_signal_exit(void (*hook)(void));
void catch_signals(bool pipe, bool quit);
void defer_signals(bool on);
void int_stops(bool on);
bool stop_requested(void);
void block_signals(sigset_t *old);
void unblock_signals(const sigset_t *old);
pid_t fork_command(void);
pid_t run_command(char **argv);
int wait_command(pid_t pid);

/* kmod.c: perfkmod's debugfs directory, its control file, the temporaries */
extern const char *dbg;
void set_debugfs(void);
void need_dir(void);
__printf(1, 2) char *dbg_path(const char *fmt, ...);
int ctl(const char *cmd, bool quiet);
void ctl_complain(const char *cmd);
void ctl_complain_as(const char *cmd, const char *typed);
char *last_error(void);
bool lacks(const char *why);
void listing(struct sbuf *out);
void temp_add(const char *name, bool first);
void temp_drop_last(void);
void temp_drop(const char *name);
void forget_temp_fd(void);
void release(void);
void remove_at_exit(const char *path);
void keep_at_exit(const char *path);
void cleanup(void);

/* list.c: the list file, a counter a line */
struct list_entry {
	char *name, *target, *state, *spec;
	u64 value, scaled, enabled, running;
	bool sampling;		/* the overflow statistics are its */
	u64 overflows, throttled, dropped, requeued;
};

int read_list(struct list_entry **out);
void free_list(struct list_entry *e, int n);

/* the subcommands */
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_prom(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_regions(int argc, char **argv);

#endif
