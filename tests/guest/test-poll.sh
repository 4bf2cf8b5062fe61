#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A series' records read as they come: a reader of records.bin (the
# pollrec helper) sleeps in poll() while no record waits and wakes at the
# first record of a process's page-faults trigger; woken, it reads the
# records as the text file gives them: a second series of the same
# trigger, read as text, holds the same records but for their times. The
# watermark (wakeup=N): a process's faults below it leave the reader
# asleep, with the records there; above it, the first read after the
# wakeup holds N records at least. del of a series wakes its reader with
# POLLHUP; rmmod is refused while a records file is open, and goes once
# it is closed.

. /tests/lib.sh

C=$DBG/control
S=$DBG/series

# asleep PID OUT: the pollrec of PID said "polling" and sleeps
asleep() {
	grep -qx polling "$2" && grep -q '^State:.S' /proc/$1/status
}

# gone PID: the process has exited (waited for, or a zombie)
gone() {
	! [ -e /proc/$1 ] || grep -q '^State:.Z' /proc/$1/status
}

check load insmod $MODDIR/perfkmod.ko
dir=$(mktemp -d)

# One process's page faults, each a record of two series, a and b.
mkdir "$dir/1"
touchpages 200 "$dir/1" &
tp=$!
wait_file "$dir/1/ready"
check add-trigger kw ok "add pf page-faults,pid=$tp,period=1,disabled"
check series-a kw ok "series a every=pf pf"
check series-b kw ok "series b every=pf pf"
check bin-listed test -r $S/a/records.bin
check enable kw ok "enable pf"
pollrec wait $S/a/records.bin >"$dir/a.out" &
pa=$!
check sleeps-without-records await 60 "pollrec asleep" asleep $pa "$dir/a.out"
kill -USR1 $tp
wait_file "$dir/1/done"
check wakes-at-record await 60 "pollrec woken" gone $pa
wait $pa
check woken-readable grep -qx "in " "$dir/a.out"
check woken-with-records grep -Eq '^records [1-9]' "$dir/a.out"
check disable kw ok "disable pf"
# a's records, binary: what its reader read, then the rest; b's, text
check bin-dump sh -c "{ awk 'NF == 7' $dir/a.out;
	pollrec dump $S/a/records.bin; } >$dir/a.bin"
check text-read sh -c "cat $S/b/records >$dir/b.txt"
na=$(wc -l <"$dir/a.bin")
nb=$(wc -l <"$dir/b.txt")
note "a: $na records (binary), b: $nb (text)"
check same-count test "$na" -eq "$nb" -a "$nb" -ge 200
# the same records but for their times (each series reads them itself)
cut -d' ' -f2- "$dir/a.bin" | sort >"$dir/a.rest"
cut -d' ' -f2- "$dir/b.txt" | sort >"$dir/b.rest"
check bin-equals-text cmp "$dir/a.rest" "$dir/b.rest"
check fields-7 awk 'NF != 7 { exit 1 }' "$dir/a.bin"
check del-a kw ok "del a"
check del-b kw ok "del b"
check del-pf kw ok "del pf"
kill -KILL $tp
wait $tp 2>/dev/null

# Watermark 2000: 500 faults leave the reader asleep, the records there;
# the series' del wakes it with POLLHUP.
mkdir "$dir/2"
touchpages 500 "$dir/2" &
tp=$!
wait_file "$dir/2/ready"
check wm-trigger kw ok "add pf page-faults,pid=$tp,period=1"
check wm-series kw ok "series w every=pf,records=4096,wakeup=2000 pf"
check wm-spec grep -qx "every=pf,records=4096,wakeup=2000 pf" $S/w/spec
pollrec wait $S/w/records.bin >"$dir/w.out" &
pw=$!
check wm-asleep await 60 "pollrec asleep" asleep $pw "$dir/w.out"
kill -USR1 $tp
wait_file "$dir/2/done"
check wm-below-asleep asleep $pw "$dir/w.out"
check wm-below-records sh -c "n=\$(cat $S/w/records | wc -l); [ \$n -ge 500 ] && [ \$n -lt 2000 ]"
check_fails wm-rmmod-refused rmmod perfkmod
check wm-loaded-still loaded perfkmod
check del-wakes kw ok "del w"
check del-woken await 60 "pollrec woken by del" gone $pw
wait $pw
check del-hup grep -q hup "$dir/w.out"
check wm-del-pf kw ok "del pf"
kill -KILL $tp
wait $tp 2>/dev/null

# Watermark 1000 of 3000 faults: the first read after the wakeup holds
# 1000 records at least.
mkdir "$dir/3"
touchpages 3000 "$dir/3" &
tp=$!
wait_file "$dir/3/ready"
check wm3-trigger kw ok "add pf page-faults,pid=$tp,period=1"
check wm3-series kw ok "series w every=pf,records=4096,wakeup=1000 pf"
pollrec wait $S/w/records.bin >"$dir/w3.out" &
pw=$!
check wm3-asleep await 60 "pollrec asleep" asleep $pw "$dir/w3.out"
kill -USR1 $tp
check wm3-woken await 60 "pollrec woken" gone $pw
wait $pw
check wm3-read sh -c "[ \$(sed -n 's/^records //p' $dir/w3.out) -ge 1000 ]"
note "watermark 1000: $(grep -E '^(in|records)' "$dir/w3.out" | tr '\n' ' ')"
wait_file "$dir/3/done"
check wm3-del kw ok "del w"
check wm3-del-pf kw ok "del pf"
kill -KILL $tp
wait $tp 2>/dev/null

# rmmod with a reader asleep on an open records file (text): refused
# while it is open, the reader still asleep; done once it is closed.
check rm-cs kw ok "add cs context-switches,period=1000000000"
check rm-series kw ok "series r every=cs cs"
pollrec wait $S/r/records >"$dir/r.out" &
pr=$!
check rm-asleep await 60 "pollrec asleep" asleep $pr "$dir/r.out"
check_fails rmmod-with-reader rmmod perfkmod
check rm-still-asleep asleep $pr "$dir/r.out"
kill -KILL $pr
wait $pr 2>/dev/null
check unload rmmod perfkmod
rm -rf "$dir"
