#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The debug lane's last check in the VM (make check-debug; init runs it
# after every test binary, mkinitramfs --final): did the debug kernel see
# anything wrong while the tests ran? TAP, busybox sh.
#   1 lockdep: still on (/proc/lockdep_stats debug_locks 1): a lockdep
#     report turns it off, and the report itself (KERN_WARNING) does not
#     reach the console at loglevel=4, so this is where it is caught
#   2 the kernel log (log_buf_len=8M) has no report: BUG (KASAN, sleeping
#     in atomic context, DEBUG_VM's bad page, ...), WARNING (ODEBUG's
#     object reports among them), UBSAN, lockdep, RCU, hung task, list
#     corruption
#   3 kmemleak, scanned now, holds no object allocated by an ipuxcom
#     module (a backtrace through ipuxcom*/ipu_standin, or through a bare
#     module-space address: a module unloaded since)
# KASAN reports panic the VM already (kasan.fault=panic, panic_on_warn).
set -u
echo "TAP version 13"
echo "1..3"
fail=0

if [ -r /proc/lockdep_stats ]; then
	dl=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats)
	if [ "$dl" = 1 ]; then
		echo "ok 1 lockdep still enabled (no lockdep report)"
	else
		echo "not ok 1 lockdep turned itself off (debug_locks=$dl): a lockdep report, see below"
		fail=1
	fi
else
	echo "ok 1 lockdep # SKIP no /proc/lockdep_stats (kernel without lockdep)"
fi

re='BUG:|WARNING:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than|list_add corruption|list_del corruption|sleeping function called from invalid context|UBSAN:|ODEBUG:|page dumped because'
if dmesg | grep -qE "$re"; then
	echo "not ok 2 the kernel log has reports:"
	dmesg | grep -nE -A 30 "$re" | head -n 120 | sed 's/^/# /'
	fail=1
else
	echo "ok 2 the kernel log has no BUG, WARNING, lockdep, RCU or hung-task report"
fi

kml=/sys/kernel/debug/kmemleak
if [ -w "$kml" ]; then
	# objects younger than 5 s are never reported
	sleep 6
	echo scan >"$kml"
	cat "$kml" >/tmp/kmemleak.txt
	total=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
	awk '/^unreferenced object/ { if (blk != "" && mine) print blk; blk = ""; mine = 0 }
		{ blk = blk $0 "\n" }
		/ipuxcom|ipu_standin|0xffffffffc/ { mine = 1 }
		END { if (blk != "" && mine) print blk }' /tmp/kmemleak.txt >/tmp/kmemleak-ours.txt
	ours=$(grep -c '^unreferenced object' /tmp/kmemleak-ours.txt)
	if [ "$ours" -eq 0 ]; then
		echo "ok 3 kmemleak: no leak of ours ($total unreferenced objects elsewhere)"
	else
		echo "not ok 3 kmemleak: $ours leaked objects allocated by ipuxcom modules:"
		head -n 150 /tmp/kmemleak-ours.txt | sed 's/^/# /'
		fail=1
	fi
	[ "$total" -eq 0 ] || grep -A 12 '^unreferenced object' /tmp/kmemleak.txt | head -n 40 | sed 's/^/# (not ours?) /'
else
	echo "ok 3 kmemleak # SKIP no $kml"
fi
exit $fail
