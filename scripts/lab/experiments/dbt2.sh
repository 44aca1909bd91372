# SPDX-License-Identifier: GPL-2.0
# dbt2 (seed 000): a DBT-2-like OLTP run on PostgreSQL, data and WAL on ext4
# on a simhba aacraid-like LUN (raid0 of 4 u320-10k members).
#
# The driver is pgbench with the five TPC-C transactions as custom scripts
# (scripts/lab/experiments/dbt2/*.sql), mixed New-Order 45%, Payment 43%,
# Order-Status, Delivery and Stock-Level 4% each, 10 terminals per
# warehouse, no think time.  This is a reduced TPC-C: 300 customers per
# district and 10000 items (TPC-C: 3000 and 100000), and the
# warehouses are 2 x BENCH_SCALE (at least 1).  NOTPM is New-Order
# transactions per minute, from pgbench's own rate for that script (its
# count over the duration pgbench measured); CPU% is the busy share of all CPUs; Blocks/s is
# vmstat's bi + bo (1 KiB blocks) over the run.
#
# Configurations: every elevator of the seed's list (deadline =
# mq-deadline, anticipatory, cfq, bfq, none) with dma_bits=32 (the
# adapter bounces pages above 4 GiB through swiotlb), and mq-deadline with
# dma_bits=64.  Every run is profiled (boot with profile=2): readprofile's
# top 10 of each elevator side by side (the seed's deadline against AS),
# and mq-deadline's for 32 and 64 bits, next to the bounce counters of the
# simhba host.  The database is built once on tmpfs, and each run gets a
# fresh copy of it on the LUN's filesystem, so that every run starts from
# the same data with almost all memory free (on one copy the runs' New-Order
# rows piled up: on the counted clock the 16th to 25th runs of one mask
# made 0.76x the NOTPM of the 2nd to 15th, medians, whatever the elevator).

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="setpriv mkfs.ext4 /etc/mke2fs.conf readprofile vmstat chown chmod du /usr/lib/postgresql/15/bin/postgres /usr/lib/postgresql/15/bin/initdb /usr/lib/postgresql/15/bin/pg_ctl /usr/lib/postgresql/15/bin/pgbench /usr/lib/postgresql/15/bin/psql /usr/lib/postgresql/15/lib /usr/share/postgresql/15 /usr/share/zoneinfo"

secs=$(bench_size 60 10)
W=$(bench_size 2 1)
C=300
I=10000
clients=$((10 * W))
bench_ctx duration "$secs SECONDS"
bench_ctx warehouses "$W"
pgbin=/usr/lib/postgresql/15/bin
sqldir=$LAB_TOP/scripts/lab/experiments/dbt2
seed_elevators="mq-deadline anticipatory cfq bfq none"
bench_plan $((3 + ($(wc -w <<<"$seed_elevators") + 1) * BENCH_RUNS))

if [ ! -x $pgbin/postgres ] || [ ! -x $pgbin/pgbench ]; then
	bench_note "PostgreSQL 15 is not installed (postgresql, postgresql-contrib): no dbt2"
	exit 1
fi
if ! _have_module simhba >/dev/null; then
	bench_note "simhba is not available: dbt2 needs its aacraid-like LUN"
	exit 1
fi
memkb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)
[ "$memkb" -gt $((4 * 1024 * 1024)) ] ||
	bench_note "the guest has $((memkb / 1024)) MB: no page lies above 4 GiB, dma_bits=32 cannot bounce"
have_prof=0
if [ -r /proc/profile ] && command -v readprofile >/dev/null; then
	have_prof=1
else
	bench_note "no kernel profile (boot with profile=2, util-linux readprofile): no profile table"
fi

asuser() { setpriv --reuid=postgres --regid=postgres --init-groups env HOME=/tmp "$@"; }
# jit=off: the root on tmpfs holds PostgreSQL's llvmjit.so but not the LLVM
# library it loads, and a query past jit_above_cost would fail
pgopts="-c listen_addresses='' -c unix_socket_directories=/tmp -c shared_buffers=32MB \
-c max_connections=$((clients + 10)) -c checkpoint_timeout=30s -c max_wal_size=256MB \
-c synchronous_commit=on -c fsync=on -c full_page_writes=on -c jit=off"
pglog=$TEST_TMP/pglog
mkdir -p "$pglog"
chown postgres: "$pglog"
pgstart()
{
	asuser $pgbin/pg_ctl -D "$1" -o "$pgopts" -l "$pglog/pg.log" -w -t 300 start \
		>"$pglog/pg_ctl.out" 2>&1 && return 0
	cat "$pglog/pg_ctl.out" "$pglog/pg.log" >>"$BENCH_DIR/dbt2-postgres.log" 2>/dev/null
	return 1
}
pgstop() { asuser $pgbin/pg_ctl -D "$1" -m fast -w stop >/dev/null 2>&1; }

# 1. the database, once, on tmpfs
bench_step "initdb and load $W warehouses ($C customers/district, $I items)"
tmpl=$TEST_TMP/pgtemplate
rm -rf $tmpl
mkdir -p $tmpl
chown postgres: $tmpl
cp "$sqldir"/*.sql "$TEST_TMP"/
chmod a+rx "$TEST_TMP"
chmod a+r "$TEST_TMP"/*.sql
if ! asuser $pgbin/initdb -D $tmpl/data -A trust -U postgres >"$TEST_TMP/initdb.log" 2>&1; then
	bench_note "initdb failed: $(tail -n2 "$TEST_TMP/initdb.log" | tr '\n"' ' ')"
	exit 1
fi
if ! pgstart $tmpl/data; then
	bench_note "PostgreSQL did not start: $(tail -n2 "$pglog/pg_ctl.out" "$pglog/pg.log" 2>/dev/null | tr '\n"' ' ')"
	exit 1
fi
if ! asuser $pgbin/psql -h /tmp -U postgres -q -v ON_ERROR_STOP=1 -v W=$W -v C=$C \
		-v I=$I -f "$TEST_TMP/schema.sql" postgres >"$TEST_TMP/load.log" 2>&1; then
	bench_note "loading the database failed: $(tail -n2 "$TEST_TMP/load.log" | tr '\n"' ' ')"
	pgstop $tmpl/data
	exit 1
fi
pgstop $tmpl/data
bench_ctx db_mb "$(du -sm $tmpl/data | cut -f1)"

ran=0
# a simhba host counter, or nothing when the host does not have it
host_counter() { cat /sys/class/scsi_host/host"$1"/simhba_"$2" 2>/dev/null; }
# b - a, or null (JSON) when either reading is missing: never a 0 that
# looks measured
counter_delta() { if [ -n "$1" ] && [ -n "$2" ]; then echo $(($2 - $1)); else echo null; fi; }
vmstat_blocks() { awk '$1 == "pgpgin" { i = $2 } $1 == "pgpgout" { o = $2 } END { print i + o }' /proc/vmstat; }

for bits in 32 64; do
	bench_step "dma_bits=$bits: aacraid-like LUN, ext4"
	mnt=$TEST_TMP/pg$bits
	if ! _simhba_load 1 personality=aacraid dma_bits=$bits profile=raid0 raid_members=4 \
			raid_member=u320-10k capacity_mb=4096 store_mb=2048 >"$TEST_TMP/sl.log"; then
		bench_note "cannot load simhba personality=aacraid dma_bits=$bits: $(tr '\n"' ' ' <"$TEST_TMP/sl.log")"
		continue
	fi
	dev=$(_simhba_disks | head -n1)
	host=$(_simhba_hosts | head -n1)
	mkdir -p $mnt
	if ! mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1,nodiscard /dev/"$dev" >"$TEST_TMP/mkfs.log" 2>&1 ||
	   ! mount -o noinit_itable /dev/"$dev" $mnt; then
		bench_note "mkfs.ext4/mount on $dev failed: $(tr '\n"' ' ' <"$TEST_TMP/mkfs.log")"
		_simhba_unload
		continue
	fi
	if [ $bits = 32 ]; then elevs=$seed_elevators; else elevs=mq-deadline; fi
	avail=$(bench_schedulers "$dev")
	for run in $(seq 1 "$BENCH_RUNS"); do
		for e in $elevs; do
			if ! grep -qw -- "$e" <<<"$avail"; then
				[ $run != 1 ] || [ $bits != 32 ] ||
					bench_note "elevator $e does not exist in this kernel: its NOTPM is missing"
				bench_ctx missing_$e 1
				continue
			fi
			bench_step "dma_bits=$bits elevator=$e run $run: $clients terminals, ${secs} s"
			bench_select "$dev" "$e" || continue
			# the same start: the database copied afresh, caches
			# dropped, server freshly started.  A copy that failed, or
			# landed inside a data directory rm left, is not measured;
			# syncfs (sync -f) reports the file system's write errors,
			# which sync(2) does not
			rm -rf "$mnt/data"
			if [ -e "$mnt/data" ] || ! cp -a "$tmpl/data" "$mnt/data" ||
			   ! sync -f "$mnt"; then
				bench_note "copying the database to $dev failed (dma_bits=$bits $e run $run): that run is missing"
				continue
			fi
			bench_drop_caches
			pgstart $mnt/data || { bench_note "PostgreSQL did not start on $dev"; continue; }
			prof=$have_prof
			[ "$prof" = 0 ] || readprofile -r 2>/dev/null
			b0=$(host_counter "$host" bounce_segs); y0=$(host_counter "$host" bounce_bytes)
			k0=$(vmstat_blocks); s0=$(bench_stat); t0=$(bench_now)
			(cd "$TEST_TMP" && asuser $pgbin/pgbench -h /tmp -U postgres -n -c $clients -j 2 \
				-T "$secs" --max-tries=10 --random-seed="$BENCH_SEED" -D W=$W -D C=$C -D I=$I \
				-f new_order.sql@45 -f payment.sql@43 -f order_status.sql@4 \
				-f delivery.sql@4 -f stock_level.sql@4 postgres) \
				>"$TEST_TMP/pgbench.out" 2>&1
			t1=$(bench_now); s1=$(bench_stat); k1=$(vmstat_blocks)
			b1=$(host_counter "$host" bounce_segs); y1=$(host_counter "$host" bounce_bytes)
			detail=
			if [ "$prof" = 1 ]; then
				grep -v '\[' /proc/kallsyms >"$TEST_TMP/map"
				readprofile -m "$TEST_TMP/map" >"$TEST_TMP/profile" 2>"$TEST_TMP/profile.err"
				detail="{\"profile\": $(bench_parse readprofile "$TEST_TMP/profile")}"
				bench_keep "$TEST_TMP/profile" "dbt2-profile-dma$bits-$e-run$run.txt"
			fi
			pgstop $mnt/data
			bench_keep "$TEST_TMP/pgbench.out" "dbt2-pgbench-dma$bits-$e-run$run.txt"
			el=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
			# New-Order transactions per second over the time pgbench
			# measured (its per-script tps), not over the requested $secs
			if ! no=$(bench_parse pgbench-script-tps new_order.sql \
				"$TEST_TMP/pgbench.out") || [ -z "$no" ] ||
			   [ "$no" = null ]; then
				bench_note "pgbench failed (dma_bits=$bits $e): $(tail -n1 "$TEST_TMP/pgbench.out" | tr '"' "'")"
				continue
			fi
			st=$(bench_stat_delta "$s0" "$s1" "$el")
			m="\"notpm\": $(awk -v n="$no" 'BEGIN { printf "%.1f", n * 60 }'), \
\"blocks_per_s\": $(awk -v a="$k0" -v b="$k1" -v t="$el" 'BEGIN { if (t > 0) printf "%.1f", (b - a) / t; else print "null" }'), \
\"bounce_segs\": $(counter_delta "$b0" "$b1"), \"bounce_bytes\": $(counter_delta "$y0" "$y1"), $st"
			bench_row "{\"table\": \"stp\", \"elevator\": \"$e\", \"dma_bits\": $bits}" "{$m}"
			[ -z "$detail" ] ||
				bench_row "{\"table\": \"profile\", \"elevator\": \"$e\", \"dma_bits\": $bits}" \
					"{\"bounce_segs\": $(counter_delta "$b0" "$b1"), \"bounce_bytes\": $(counter_delta "$y0" "$y1")}" "$detail"
			ran=1
		done
	done
	umount $mnt
	_simhba_unload
done
rm -rf $tmpl
[ $ran = 1 ]
