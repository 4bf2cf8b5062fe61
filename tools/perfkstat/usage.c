// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat's usage and manual: usage() for a command line not
 * understood (the subcommand's, or every one's), help() for "perfkstat
 * help", help_of() for "perfkstat SUBCOMMAND -h". Each subcommand has a
 * text of usage lines and a text of its own in the manual's COMMANDS; the
 * manual is the head, those texts in order, the table of perf's options
 * and syntax, and the tail. The manual is
 * also the man page (mkman.sh lays out what help() prints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkstat.h"

static const char control_usage[] =
"usage: perfkstat add NAME SPEC         create a counter (SPEC: the event grammar)\n"
"usage: perfkstat del NAME              release it\n"
"usage: perfkstat enable|disable|reset NAME\n"
"usage: perfkstat period NAME VALUE     new sample period (or frequency)\n";

static const char list_usage[] =
"usage: perfkstat list                  the counters, as add commands\n";

static const char events_usage[] =
"usage: perfkstat events [CLASS...]     what this machine can count, as perf list\n"
"usage: perfkstat events -e EVENTS...   perfkmod's spec of each event\n";

static const char stat_usage[] =
"usage: perfkstat stat [-e SPEC]... [-a | -C CPUS | -p PID | -t TID]\n"
"                 [-A | --per-*] [-d] [-n] [-r N] [-D MS] [--timeout MS]\n"
"                 [-I MS [--summary]] [--metric-only] [-x SEP | -j] [-o FILE]\n"
"                 [COMMAND [ARGS]]\n"
"usage: perfkstat stat [-k NAME]... [-I MS] [-x SEP | -j]   named counters\n"
"usage: perfkstat stat --func SYMBOL -a [-e SPEC]... [-A] [-x SEP | -j]\n"
"                 [-o FILE] [--timeout MS] [COMMAND [ARGS]]\n";

static const char regions_usage[] =
"usage: perfkstat regions [NAME...] [-A] [-x SEP | -j]   the regions, per call\n";

static const char prom_usage[] =
"usage: perfkstat prom FILE             the metrics, written to FILE atomically\n";

static const char record_usage[] =
"usage: perfkstat record -I INTERVAL [-r RECORDS] [-o FILE.csv] [-t SECONDS]\n"
"                 [-p PID] [-e SPEC]... [NAME...] [-- COMMAND...]\n"
"usage: perfkstat record --every EVENT:N [--symbols] [-r RECORDS]\n"
"                 [-o FILE.csv | -o FILE.data] [--perf-data FILE.data]\n"
"                 [-t SECONDS] [-p PID] [-e SPEC]... [NAME...] [-- COMMAND...]\n";

static const char plot_usage[] =
"usage: perfkstat plot FILE.csv [-x EVENT] [-o FILE.svg]\n";

static const char help_usage[] =
"usage: perfkstat help                  this, and the manual (also -h, --help)\n"
"usage: perfkstat version               perfkstat's version (also --version)\n";

static const char manual_head[] =
"\n"
"NAME\n"
"       perfkstat - perfkmod's counters, the way perf stat shows them\n"
"\n"
"DESCRIPTION\n"
"       perfkstat makes, reads and releases perfkmod's named counters\n"
"       through its debugfs directory (root only). SPEC is a counter's\n"
"       event in perfkmod's event grammar (Documentation/perfkmod.rst).\n"
"\n"
"COMMANDS\n";

static const char control_text[] =
"       add NAME SPEC, del NAME, enable NAME, disable NAME, reset NAME,\n"
"       period NAME VALUE\n"
"              One control command each; a failure says the kernel's\n"
"              reason, from last_error.\n"
"\n";

static const char list_text[] =
"       list   The counters, as add commands (under kernel lockdown, from\n"
"              their spec files, in name order).\n"
"\n";

static const char events_text[] =
"       events [hw|sw|cache|raw|bp|pmu|tracepoint]...\n"
"              What this machine can count, as perf list shows it:\n"
"              perfkmod's named events (and why not), the raw and\n"
"              breakpoint syntax, each PMU with its terms' bit fields\n"
"              and its events (sysfs), the tracepoints (tracefs).\n"
"              list CLASS... is the same.\n"
"       events -e EVENTS...\n"
"              Each event of EVENTS as typed and perfkmod's spec of it,\n"
"              a line each, a tab between.\n"
"\n";

static const char stat_text[] =
"       stat [OPTIONS] [COMMAND [ARGS]]\n"
"              perf stat over perfkmod, with perf's options and output.\n"
"              What is counted:\n"
"              COMMAND        it and its children, from its exec to its\n"
"                             end: task counters made on it with inherit\n"
"                             before it execs (-- before it is optional)\n"
"              -a, --all-cpus every CPU, while COMMAND runs or until\n"
"                             SIGINT (or -I's count, or --timeout)\n"
"              -C, --cpu CPUS the CPUs of a list (0-3,5), as -a\n"
"              -p, --pid PID[,PID]  -t, --tid TID[,TID]\n"
"                             the threads of the processes (the threads)\n"
"                             and the tasks they make from then on, while\n"
"                             COMMAND runs, or until they end or SIGINT\n"
"              none of these  with events (-e, -d, -n), every CPU, as\n"
"                             perf's; else the named counters (-k\n"
"                             NAME..., or all of them): their values\n"
"                             now, or with -I in each interval\n"
"              -e, --event EVENTS  events in perf's syntax, a temporary\n"
"                             counter each: a,b is a and b, a row each,\n"
"                             named as typed; names, rNNN, pmu/t=v,.../,\n"
"                             subsys:event, mem:ADDR[/LEN][:rwx], their\n"
"                             modifiers (:u :k :h :I :p :D :e; :H\n"
"                             noted, :G refused), {a,b} groups (counted\n"
"                             apart, noted); perfkmod's grammar where\n"
"                             perf would refuse the line: an option\n"
"                             (cycles,period=1000) stays with the event\n"
"                             before it, the row named as perf names\n"
"                             such an event (cycles/period=1000/);\n"
"                             without -e, perf's\n"
"                             default events (task-clock or cpu-clock,\n"
"                             context-switches, cpu-migrations,\n"
"                             page-faults, cycles, instructions,\n"
"                             branches, branch-misses)\n"
"              -k, --counter NAME  a named counter\n"
"              -d, --detailed perf's detailed events too: L1-dcache-loads,\n"
"                             L1-dcache-load-misses, LLC-loads,\n"
"                             LLC-load-misses; -dd adds the L1-icache,\n"
"                             dTLB and iTLB loads and load misses,\n"
"                             -ddd L1-dcache-prefetches and\n"
"                             L1-dcache-prefetch-misses\n"
"              -n, --null     no events: the time alone\n"
"              --all-user, --all-kernel  every event counts user (kernel)\n"
"                             space alone, as perf sets its exclude bits\n"
"              Counting:\n"
"              -r, --repeat N COMMAND N times, each on counters of its\n"
"                             own: a row shows the mean, and its\n"
"                             deviation ( +- x.xx% ) (CSV: x.xx% after\n"
"                             the event; JSON: variance); the time\n"
"                             elapsed, the mean +- its deviation\n"
"              -D, --delay MS count from MS ms after COMMAND starts:\n"
"                             what is counted before is left out\n"
"              --timeout MS   stop after MS ms (at least 10); COMMAND\n"
"                             gets SIGTERM, as perf's\n"
"              --no-scale     the counts as read, not scaled to the\n"
"                             time enabled\n"
"              -G, --cgroup and --bpf-counters are refused: in-kernel\n"
"                             counters have no cgroup, and the other is\n"
"                             perf's BPF path to its counters\n"
"              Rows (of all-CPUs or CPU counters):\n"
"              -A, --no-aggr  a row per CPU\n"
"              --per-core, --per-cache, --per-cluster, --per-die,\n"
"              --per-socket, --per-node\n"
"                             a row per core ... node, from sysfs\n"
"              --per-thread   a row per thread of -p or -t\n"
"              --no-merge     accepted: a counter is one row already\n"
"              Output (standard error unless -o):\n"
"              -o, --output FILE  into FILE, after a \"# started on\" line;\n"
"                             --append adds to it\n"
"              -x, --field-separator SEP  CSV: [time,][place,[cpus,]]\n"
"                             value,unit,event,run ns,percent running,\n"
"                             metric,metric unit\n"
"              -j, --json-output  a JSON object a row\n"
"              -I, --interval-print MS  every MS milliseconds (or a number\n"
"                             and ns, us, ms or s; at least 100us)\n"
"              --interval-count N  N intervals, then stop\n"
"              --summary      with -I, the whole count after the\n"
"                             intervals (CSV: its rows begin with\n"
"                             \"summary\", but with --no-csv-summary)\n"
"              --metric-only  the metrics alone, a column each\n"
"              --no-big-num   without the locale's thousands' separators\n"
"                             in the table (the C locale has none)\n"
"              Values are scaled to the time enabled when a counter did\n"
"              not run all of it; a counter that did not run reads <not\n"
"              counted>, an event the machine lacks <not supported>.\n"
"              Metrics as perf's: CPUs utilized, /sec, GHz, insn per\n"
"              cycle, of all branches, cycles idle. The exit status is\n"
"              COMMAND's.\n"
"              --func SYMBOL  with -a: the calls of the kernel function\n"
"                             SYMBOL instead, as perfkstat regions shows a\n"
"                             region: a temporary region (perfkstat-PID-f)\n"
"                             over the events' temporary counters (at most\n"
"                             8) counts each call while COMMAND runs (or\n"
"                             until SIGINT, or --timeout), then the mean\n"
"                             of a call of each event, the calls, and\n"
"                             the time elapsed. A function kprobes cannot\n"
"                             probe is refused with the kernel's reason:\n"
"                             \"perfkstat: cannot probe SYMBOL: -EINVAL:\n"
"                             ...\" (status 1). -A, -x and -j as regions'.\n"
"\n";

static const char regions_text[] =
"       regions [NAME...] [-A] [-x SEP | -j]\n"
"              perfkmod's regions (regions/NAME/ of its debugfs: every\n"
"              region without NAME), each as perf stat shows counters,\n"
"              on standard output: \"Performance counter stats for\n"
"              region 'NAME' (func=SYMBOL, N calls)\" (marker for a\n"
"              module's), then a row a counter: the mean of a call\n"
"              (its sum over the calls, 2 decimals, a clock's msec 6;\n"
"              <not counted> without calls), with perf's ratios where\n"
"              both events\n"
"              are counters of the region (insn per cycle, of all\n"
"              branches, of all cache refs ...); then calls, lost (a\n"
"              call with a counter unreadable, or a CPU gone, between\n"
"              its begin and end), migrated (ended on another CPU),\n"
"              missed (kretprobe misses), min(C) and max(C) of counter\n"
"              0, C, and C's log2 histogram, as bpftrace's hist()\n"
"              (from the first bucket with calls): [LOW, HIGH) calls\n"
"              |@@@@|. A counter's event, for the\n"
"              ratios, is its spec's (counters/NAME/spec).\n"
"              -A, --no-aggr  a row a CPU (without missed, the\n"
"                             region's, and the histogram, all CPUs')\n"
"              -x, --field-separator SEP  CSV, a row a line:\n"
"                             region,[CPUn,]value,unit,event,calls,\n"
"                             100.00,metric,metric unit: a counter's\n"
"                             value the mean of a call (2 decimals),\n"
"                             calls the calls it is the mean of; then\n"
"                             calls, lost, migrated, missed, min(C),\n"
"                             max(C) and without -A hist(C)[LOW..HIGH]\n"
"                             (bounds inclusive), their value a count\n"
"                             and no metric\n"
"              -j, --json-output  a JSON object a row, perf's keys\n"
"                             after \"region\": \"cpu\" (-A),\n"
"                             \"counter-value\" (6 decimals for a\n"
"                             mean), \"unit\", \"event\",\n"
"                             \"event-runtime\" (the calls),\n"
"                             \"pcnt-running\", \"metric-value\",\n"
"                             \"metric-unit\"\n"
"\n";

static const char prom_text[] =
"       prom FILE\n"
"              The metrics (Prometheus text format) written to FILE\n"
"              atomically: a temporary file in its directory, renamed.\n"
"              perfkmod-prom.timer runs it every 15 s (FILES).\n"
"\n";

static const char record_text[] =
"       record -I INTERVAL [-r RECORDS] [-o FILE.csv] [-t SECONDS]\n"
"              [-p PID] [-e SPEC]... [NAME...] [-- COMMAND...]\n"
"              Samples the counters of each -e SPEC (temporary, a list as\n"
"              stat's)\n"
"              and the all-CPUs counters NAMEd, in the kernel, on every\n"
"              CPU every INTERVAL (milliseconds, or a number and ns, us,\n"
"              ms or s; at least 100us), while COMMAND runs, or for\n"
"              SECONDS, or until\n"
"              SIGINT, and writes CSV to FILE.csv (default: standard\n"
"              output, after COMMAND's own output): a header\n"
"              \"time,cpu,EVENT...\" then a row per record of a CPU, in\n"
"              time order: seconds since the first record, the CPU, and\n"
"              what each event counted on that CPU since its previous\n"
"              record (a temporary counter: since it was made; a NAMEd\n"
"              one: since the recording began); empty when the kernel\n"
"              could not read it. With -p PID it follows that process's\n"
"              own thread instead (-e events only, until it exits): a row\n"
"              when a CPU's interval finds it running and when it leaves a\n"
"              CPU, the CPU it ran on, and what it counted since its\n"
"              previous row, whatever the CPU. After the counters stop it\n"
"              waits until every CPU recorded twice more (at most 10 s and\n"
"              10 intervals). A summary goes to standard error: records,\n"
"              CPUs, records dropped, intervals skipped (a late or slow\n"
"              timer), each event's total, and a temporary counter's own\n"
"              value, which the total must equal (a warning if not; with\n"
"              -p, what the process counted after its last row). RECORDS\n"
"              is the size of each CPU's ring (default: a second of\n"
"              intervals, at least 4096). The exit status is COMMAND's.\n"
"\n"
"       record --every EVENT:N [--symbols] [OPTIONS as above, but -I]\n"
"              The same, a record at each Nth EVENT of a CPU (or of -p's\n"
"              process) instead of by time: EVENT (perfkmod's grammar,\n"
"              without period= or freq=) is a temporary counter sampling\n"
"              with period N, the first column, and its overflows are\n"
"              the records, taken in the overflow's own context (NMI\n"
"              where the PMU interrupts so). N is a count\n"
"              (instructions:10000000, page-faults:100), or for cpu-clock\n"
"              and task-clock a duration (cpu-clock:1ms). A row ends with\n"
"              what the overflow interrupted: \",ip,pid,tid,mode\", the\n"
"              IP in hex, the pid and tid (0: idle), user or kernel; with\n"
"              --symbols a kernel IP is also named, in a column symbol:\n"
"              \"symbol+0xOFFSET\" (\" [module]\" in a module) from\n"
"              /proc/kallsyms, which shows addresses to root (empty past\n"
"              the symbol's text: the kernel's up to _etext, or its\n"
"              module's). No waiting after the counters stop: the\n"
"              trigger stops first. The summary gives the trigger's\n"
"              overflows and throttlings (a hardware trigger, or a clock\n"
"              of 10us at least, that overflows too often is throttled\n"
"              by perf); an event's total is what it had counted at each\n"
"              CPU's last record, at most its counter's value. RECORDS:\n"
"              default 4096 a CPU; dropped records (a ring full before\n"
"              perfkstat, woken by poll() as records wait, reads it) are\n"
"              counted, never hidden. -o FILE.data (a name ending in\n"
"              .data, as perf record's) writes the records as perf.data\n"
"              instead of the CSV; --perf-data FILE.data writes it beside\n"
"              -o's CSV. perf.data holds\n"
"              a sample each (ip, pid, tid, time, cpu, N as its period, and\n"
"              each event's count as a group read, which perf shows as a\n"
"              sample of each event), with the kernel's, the modules' and\n"
"              the recorded tasks' code mappings (those a task had when a\n"
"              drain first found its records) and names: perf report -i\n"
"              FILE.data and perf script -i FILE.data read it (on another\n"
"              machine with --kallsyms, a copy of this one's\n"
"              /proc/kallsyms).\n"
"\n";

static const char plot_text[] =
"       plot FILE.csv [-x EVENT] [-o FILE.svg]\n"
"              Draws FILE.csv with gnuplot into FILE.svg (default: FILE\n"
"              with .svg for .csv), and says on standard error where: a\n"
"              panel per event, stacked over one x axis, each with its\n"
"              own y axis from 0, labelled with the event (a clock's\n"
"              millions do not flatten a count of tens): its count per\n"
"              second summed over the CPUs, in up to 100 time buckets.\n"
"              With -x, against EVENT's count over all CPUs instead (x:\n"
"              instructions, not time): a panel for each other event,\n"
"              its count per EVENT, in up to 100 buckets of EVENT.\n"
"\n";

static const char help_text[] =
"       help, -h, --help\n"
"              The usage and this manual, on standard output; the exit\n"
"              status is 0.\n"
"\n"
"       help COMMAND, COMMAND -h, COMMAND --help\n"
"              COMMAND's usage and its part of this manual, on standard\n"
"              output; the exit status is 0. A command line not\n"
"              understood gets the usage of its COMMAND alone (an\n"
"              unknown option named first, as perf's \"Error: unknown\n"
"              option\"), on standard error, and the exit status 2.\n"
"\n"
"       version, --version, -v\n"
"              \"perfkstat version VERSION\", as perf's \"perf version\",\n"
"              VERSION perfkmod's (perfkmod.h, MODULE_VERSION).\n"
"\n";

static const char perf_table[] =
"PERF OPTIONS AND SYNTAX\n"
"       What perf stat and perf record take, and what perfkstat does with\n"
"       it: yes (as perf), refused (with the reason), or not known\n"
"       (\"Error: unknown option\" and the usage, status 2).\n"
"\n"
"       perf                   perfkstat\n"
"       Events, in -e of stat and record:\n"
"       -e a,b,c               yes: an event each, a row (a column) each,\n"
"                              named as typed\n"
"       -e pmu/term=v,.../     yes: perf's terms, read as perf reads them\n"
"       -e rNNNN               yes: a raw event of the CPU's PMU\n"
"       -e subsys:event        yes: a tracepoint by name, labelled so\n"
"       -e EVENT:ukhIDep       yes: modifiers, on each event (u, k, h, I\n"
"                              on named and raw events: the grammar has no\n"
"                              exclude bits for the others)\n"
"       -e EVENT:H             counted, noted once: perfkmod's counters set\n"
"                              no exclude_guest\n"
"       -e EVENT:G (:P :S :b :R)\n"
"                              refused, with the reason\n"
"       -e '{a,b}'             the members counted as independent events,\n"
"                              said once on standard error: a kernel\n"
"                              counter has no group leader\n"
"       cycles,period=1000     perfkmod's grammar (Documentation/perfkmod.rst)\n"
"                              where perf reads the line no other way;\n"
"                              where the two readings differ, perf's;\n"
"                              stat's row is named cycles/period=1000/\n"
"       perf list [CLASS]      perfkstat events (list CLASS): the named\n"
"                              events, raw and breakpoint syntax, PMUs with\n"
"                              their formats and aliases, tracepoints;\n"
"                              perfkstat list alone lists the counters\n"
"       stat:\n"
"       COMMAND, -a, -p, -t    yes\n"
"       -C, --cpu LIST         yes\n"
"       -A, --per-core, --per-cache, --per-cluster, --per-die,\n"
"       --per-socket, --per-node, --per-thread, --no-merge\n"
"                              yes\n"
"       -x, -j, -o, --append, -B, --no-big-num\n"
"                              yes\n"
"       -I, --interval-count   yes\n"
"       --summary, --no-csv-summary\n"
"                              yes, with -I\n"
"       -r, --repeat N         yes: ( +- x.xx% ), and CSV's and JSON's\n"
"                              variance fields\n"
"       -d, -dd, -ddd          yes: perf's detailed lists, <not supported>\n"
"                              where the machine lacks an event\n"
"       -D, --delay MS         yes: what is counted before its end is\n"
"                              left out (-1, for --control: refused)\n"
"       --timeout MS           yes\n"
"       -n, --null             yes\n"
"       --all-user, --all-kernel\n"
"                              yes\n"
"       --no-scale             yes\n"
"       --metric-only          yes\n"
"       -G, --cgroup, --for-each-cgroup\n"
"                              refused: a kernel counter has no cgroup\n"
"       --bpf-counters         refused: perf's BPF path; perfkmod's\n"
"                              counters are the kernel's already\n"
"       -g, -i, -M, -S, -T, --topdown, --iostat, --pre, --post,\n"
"       --control, and the rest\n"
"                              not known\n"
"       record:\n"
"       -e EVENT -c N          --every EVENT:N: a record at each Nth\n"
"                              EVENT (-e adds counters read at each)\n"
"       -o FILE.data           yes: perf.data, for perf report and perf\n"
"                              script (-o FILE.csv: perfkstat's CSV;\n"
"                              --perf-data FILE.data: both)\n"
"       -p PID                 yes: its own thread (no children)\n"
"       -a                     the default: every CPU\n"
"       -m, --mmap-pages       -r RECORDS: each CPU's ring; records are\n"
"                              read as they come (poll()), as perf's\n"
"                              ring buffer wakes its reader\n"
"       -I, -r, -t             differ: perfkstat's are INTERVAL, RECORDS\n"
"                              and SECONDS (perf's: registers, realtime\n"
"                              priority, a thread)\n"
"       -F, -g, --call-graph, -b, and the rest\n"
"                              not known: a record is at a period, and\n"
"                              holds one IP\n"
"       Everywhere:\n"
"       -h, --help             the subcommand's usage and text\n"
"       perf --version         perfkstat --version\n"
"\n";

static const char manual_tail[] =
"SIGNALS\n"
"       HUP, INT, PIPE, QUIT and TERM end stat and record; HUP, INT and\n"
"       TERM end plot. Each first deletes what it made (temporary\n"
"       counters, its series, files), whatever other signal comes\n"
"       meanwhile, then exits with 128 + the signal. While a command it\n"
"       runs is going (stat's and record's COMMAND, plot's gnuplot), it\n"
"       waits for that command to end first, as a shell waits for its\n"
"       foreground command; stat prints what it counted before it exits.\n"
"       stat's SIGINT without a COMMAND, or with -I, ends the counting\n"
"       (as perf stat's), which is then shown. record's SIGINT before\n"
"       its counters stop ends the recording instead, which is then\n"
"       written out (with a COMMAND, when the COMMAND ends). A signal\n"
"       ignored when perfkstat starts (nohup, a background job's SIGINT)\n"
"       stays ignored, and COMMAND starts with the signal dispositions\n"
"       and mask perfkstat was given.\n"
"\n"
"MODULE OPTIONS\n"
"       perfkmod's own parameters, given when it loads: on insmod's or\n"
"       modprobe's command line (in quotes: the shell takes \";\"), or in\n"
"       /etc/modprobe.d/perfkmod.conf, whose \"options\" line modprobe adds\n"
"       each time it loads perfkmod:\n"
"\n"
"              options perfkmod counters=pf=page-faults;clk=cpu-clock\n"
"\n"
"       counters=NAME=SPEC;NAME=SPEC...\n"
"              Named counters made at load time, each as \"add NAME SPEC\"\n"
"              makes it.\n"
"       series=NAME=INTERVAL[,records=N]:COUNTER:COUNTER...;...\n"
"              Time series made at load time, after the counters: the\n"
"              words of the control file's series command, \":\" between\n"
"              them; each COUNTER a named counter (e.g. one of\n"
"              counters=), INTERVAL a number and ns, us, ms or s (at\n"
"              least 100us), or every=TRIGGER for a record at each\n"
"              overflow of the named sampling counter TRIGGER.\n"
"       max_counters, max_name_len, max_cmd_len, ring_size, series_max_mb\n"
"              Bounds (modinfo perfkmod; Documentation/perfkmod.rst).\n"
"\n"
"       At load time a NAME holds no \"=\" or \";\" (nor \":\" when series=\n"
"       names it). A bad entry fails the whole load, and the kernel log\n"
"       says which and why. /sys/module/perfkmod/parameters/ shows the\n"
"       values. To load perfkmod at boot, name it in a line of\n"
"       /etc/modules-load.d/perfkmod.conf.\n"
"\n"
"ENVIRONMENT\n"
"       PERFKMOD_DEBUGFS\n"
"              perfkmod's debugfs directory (default\n"
"              /sys/kernel/debug/perfkmod).\n"
"\n"
"FILES\n"
"       /sys/kernel/debug/perfkmod\n"
"              perfkmod's debugfs directory (root only).\n"
"       /etc/modprobe.d/perfkmod.conf\n"
"              perfkmod's options (MODULE OPTIONS).\n"
"       /usr/share/doc/perfkmod-tools/examples/perfkmod.conf\n"
"              An example of it, every line commented out.\n"
"       /etc/modules-load.d/perfkmod.conf\n"
"              \"perfkmod\" in it loads perfkmod at boot.\n"
"       perfkmod-prom.service, perfkmod-prom.timer\n"
"              systemd units of the perfkmod-tools package, disabled\n"
"              until \"systemctl enable --now perfkmod-prom.timer\": the\n"
"              timer runs the service every 15 s, which runs perfkstat\n"
"              prom /var/lib/prometheus/node-exporter/perfkmod.prom\n"
"              while perfkmod is loaded and that directory exists.\n"
"       /var/lib/prometheus/node-exporter/perfkmod.prom\n"
"              The counters for prometheus-node-exporter's textfile\n"
"              collector, which reads that directory's *.prom files.\n"
"\n"
"EXIT STATUS\n"
"       0 on success (help too), 1 on a failure (one message on standard\n"
"       error), 2 for a command line not understood, a COMMAND's own\n"
"       status where it runs one (128 + the signal that ended it; 127\n"
"       when it is not found, 126 when it cannot be run, stat's and\n"
"       record's too), 128 + a signal that ended perfkstat.\n"
"\n"
"SEE ALSO\n"
"       perf-stat(1), modprobe.d(5), modules-load.d(5),\n"
"       Documentation/perfkmod.rst\n";

/* the subcommands' texts, in the manual's order; NAMES the words of each */
static const struct doc {
	const char *names, *usage, *text;
} docs[] = {
	{ "add del enable disable reset period", control_usage, control_text },
	{ "list", list_usage, list_text },
	{ "events", events_usage, events_text },
	{ "stat", stat_usage, stat_text },
	{ "regions", regions_usage, regions_text },
	{ "prom", prom_usage, prom_text },
	{ "record", record_usage, record_text },
	{ "plot", plot_usage, plot_text },
	{ "help version", help_usage, help_text },
};

/* the doc of the subcommand running, whose usage usage() shows */
static const struct doc *cur;

/* find_doc: the doc whose names hold the word NAME; NULL if none */
static const struct doc *find_doc(const char *name)
{
	size_t n = strlen(name), k;
	const char *w;

	for (k = 0; n && k < ARRAY_SIZE(docs); k++)
		for (w = docs[k].names; (w = strstr(w, name)); w += n)
			if ((w == docs[k].names || w[-1] == ' ') &&
			    (w[n] == ' ' || !w[n]))
				return &docs[k];
	return NULL;
}

bool set_subcmd(const char *name)
{
	cur = find_doc(name);
	return cur;
}

static void all_usage(FILE *f)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(docs); k++)
		fputs(docs[k].usage, f);
}

void usage(void)
{
	fflush(stdout);
	if (cur)
		fputs(cur->usage, stderr);
	else
		all_usage(stderr);
	exit(2);
}

bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

void bad_option(const char *arg)
{
	size_t n;

	if (is_help(arg))
		help_of(NULL);
	fflush(stdout);
	/* perf's words (parse-options.c): a long option's name, a short one's letter */
	if (arg[0] == '-' && arg[1] == '-') {
		n = strcspn(arg + 2, "=");
		fprintf(stderr, "  Error: unknown option `%.*s'\n\n", (int)n, arg + 2);
	} else if (arg[0] == '-' && arg[1]) {
		fprintf(stderr, "  Error: unknown switch `%c'\n\n", arg[1]);
	}
	usage();
}

void help_of(const char *name)
{
	const struct doc *d = name ? find_doc(name) : cur;
	size_t n;

	if (!name && !d)
		help();
	if (!d) {
		fprintf(stderr, ME ": no command '%s'\n", name);
		cur = NULL;
		usage();
	}
	fputs(d->usage, stdout);
	putchar('\n');
	/* (without the blank line that ends it in the manual) */
	n = strlen(d->text);
	if (n >= 2 && !strcmp(d->text + n - 2, "\n\n"))
		n--;
	fwrite(d->text, 1, n, stdout);
	flush_stdout();
	exit(0);
}

void help(void)
{
	size_t k;

	all_usage(stdout);
	fputs(manual_head, stdout);
	for (k = 0; k < ARRAY_SIZE(docs); k++)
		fputs(docs[k].text, stdout);
	fputs(perf_table, stdout);
	fputs(manual_tail, stdout);
	flush_stdout();
	exit(0);
}

/* PERFKSTAT_VERSION: perfkmod's MAJOR.MINOR, from perfkmod.h (Makefile) */
#ifndef PERFKSTAT_VERSION
#error "PERFKSTAT_VERSION: the Makefile passes perfkmod.h's version"
#endif

void print_version(void)
{
	printf(ME " version %s\n", PERFKSTAT_VERSION);
	flush_stdout();
	exit(0);
}
