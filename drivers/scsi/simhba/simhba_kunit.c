// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the simhba disk model.
 *
 * The tests drive the same model code the driver uses, on a virtual clock:
 * a closed loop keeps a fixed number of operations outstanding and replaces
 * each one as it completes.
 */

#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/time64.h>

#include "simhba_model.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct gen {
	bool random;
	u64 next;
	u64 lo, span;		/* random LBAs in [lo, lo + span) */
	u32 nsect;
	bool write;
	u32 write_pm;		/* if set, this many writes per 1000 ops */
	u32 fua_pm;		/* FUA writes per 1000 writes */
	u32 flush_every;	/* every so many ops is a SYNCHRONIZE CACHE */
	u32 n;
	struct rnd_state rs;
};

static void gen_fill(struct gen *g, struct simhba_op *op)
{
	INIT_LIST_HEAD(&op->node);
	op->nsect = g->nsect;
	op->write = g->write;
	op->fua = false;
	op->flush = g->flush_every && ++g->n % g->flush_every == 0;
	if (g->write_pm)
		op->write = prandom_u32_state(&g->rs) % 1000 < g->write_pm;
	if (op->write && g->fua_pm)
		op->fua = prandom_u32_state(&g->rs) % 1000 < g->fua_pm;
	if (g->random) {
		u64 r = ((u64)prandom_u32_state(&g->rs) << 32) |
			prandom_u32_state(&g->rs);
		u64 slot;

		div64_u64_rem(r, div_u64(g->span, g->nsect), &slot);
		op->lba = g->lo + slot * g->nsect;
	} else {
		op->lba = g->next;
		g->next += g->nsect;
	}
}

/*
 * Run @total operations with @qd outstanding, from when the disk's head is
 * free (0 on a new disk); returns the model time of the last completion.
 */
static u64 run_closed(struct kunit *test, struct simhba_disk *d, struct gen *g,
		      unsigned int qd, unsigned int total)
{
	struct simhba_op *ops, *op;
	unsigned int issued = 0, done = 0, i;
	u64 now = d->busy_end;

	ops = kunit_kcalloc(test, qd, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < qd && issued < total; i++, issued++) {
		gen_fill(g, &ops[i]);
		simhba_disk_enqueue(d, &ops[i], now, 0);
	}
	simhba_disk_dispatch(d, now);
	while (done < total) {
		now = simhba_disk_next_event(d);
		KUNIT_ASSERT_NE(test, now, U64_MAX);
		while (simhba_disk_reap(d, now, &op)) {
			KUNIT_ASSERT_NOT_NULL(test, op);
			done++;
			if (issued < total) {
				gen_fill(g, op);
				simhba_disk_enqueue(d, op, now, 0);
				issued++;
			}
		}
		simhba_disk_dispatch(d, now);
	}
	KUNIT_EXPECT_TRUE(test, simhba_disk_idle(d));
	return now;
}

static struct simhba_disk *new_disk(struct kunit *test, const char *name,
				    u64 cap)
{
	const struct simhba_profile *p = simhba_find_profile(name);
	struct simhba_disk *d;

	KUNIT_ASSERT_NOT_NULL(test, p);
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, simhba_disk_init(d, p, cap), 0);
	return d;
}

/* |a - b| <= b * pct / 100 */
static void expect_within_pct(struct kunit *test, u64 a, u64 b, int pct)
{
	s64 diff = abs((s64)a - (s64)b);

	KUNIT_EXPECT_LE_MSG(test, diff * 100, (s64)b * pct,
			    "%llu not within %d%% of %llu", a, pct, b);
}

static void seek_curve_test(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < simhba_nprofiles; i++) {
		const struct simhba_profile *p = &simhba_profiles[i];
		struct simhba_disk *d;
		struct rnd_state rs;
		u64 prev = 0, s, sum = 0;
		u32 c, step;

		if (p->kind != SIMHBA_HDD)
			continue;
		d = new_disk(test, p->name, 0);
		KUNIT_EXPECT_EQ(test, simhba_seek_ns(d, 0), 0);
		KUNIT_EXPECT_EQ(test, simhba_seek_ns(d, 1), p->t2t_ns);
		KUNIT_EXPECT_EQ(test, simhba_seek_ns(d, d->knee), d->knee_ns);
		KUNIT_EXPECT_EQ(test, simhba_seek_ns(d, d->cyls - 1), p->full_ns);

		step = max_t(u32, 1, d->cyls / 20000);
		for (c = 1; c < d->cyls; c += (c < 2000 ? 1 : step)) {
			s = simhba_seek_ns(d, c);
			KUNIT_EXPECT_GE_MSG(test, s, prev, "%s: seek(%u) < seek(%u)",
					    p->name, c, c - 1);
			prev = s;
		}

		/* The mean over random pairs of cylinders is the average. */
		prandom_seed_state(&rs, 42);
		for (c = 0; c < 20000; c++) {
			u32 a = prandom_u32_state(&rs) % d->cyls;
			u32 b = prandom_u32_state(&rs) % d->cyls;

			sum += simhba_seek_ns(d, a > b ? a - b : b - a);
		}
		kunit_info(test, "%s: mean seek %llu ns, datasheet average %u, at the knee %llu\n",
			   p->name, div_u64(sum, 20000), p->avg_ns, d->knee_ns);
		expect_within_pct(test, div_u64(sum, 20000), p->avg_ns, 2);
	}
}

/*
 * Re-reading one sector with read-ahead off costs exactly one revolution,
 * 60/RPM seconds, whatever the overheads.
 */
static void rotation_test(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < simhba_nprofiles; i++) {
		const struct simhba_profile *p = &simhba_profiles[i];
		struct simhba_disk *d;
		struct simhba_op op, *done;
		u64 now = 0, last = 0;
		int n;

		if (p->kind != SIMHBA_HDD)
			continue;
		d = new_disk(test, p->name, 0);
		KUNIT_EXPECT_EQ(test, d->rot_ns, div_u64(60 * NSEC_PER_SEC, p->rpm));
		d->p.ra_kib = 0;
		for (n = 0; n < 10; n++) {
			INIT_LIST_HEAD(&op.node);
			op.lba = 12345;
			op.nsect = 1;
			op.write = false;
			op.fua = false;
			op.flush = false;
			simhba_disk_enqueue(d, &op, now, 0);
			simhba_disk_dispatch(d, now);
			now = simhba_disk_next_event(d);
			KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d, now, &done));
			if (n)
				KUNIT_EXPECT_EQ(test, now - last, d->rot_ns);
			last = now;
		}
	}
}

/*
 * Sequential streaming reaches the rate the named drive's datasheet gives
 * for the zone (outer and inner), with requests smaller and larger than
 * the read-ahead segment: media rate, skew and switches together.
 */
static void stream_rate_test(struct kunit *test)
{
	static const char * const names[] = { "u320-10k", "sata-7200" };
	static const u32 sizes[] = { 256, 4096 };
	unsigned int i, z, s;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		for (z = 0; z < 2; z++) {
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				struct simhba_disk *d = new_disk(test, names[i], 0);
				struct gen g = { .nsect = sizes[s] };
				u64 bytes = 200ULL * sizes[s] * SIMHBA_SECTOR;
				u64 t, rate, want;

				/* outer zone, then the innermost zone */
				g.next = z ? d->capacity - 2 * bytes / SIMHBA_SECTOR : 0;
				want = 1000ULL * (z ? d->p.spec_inner_kbps :
						  d->p.spec_outer_kbps);
				t = run_closed(test, d, &g, 1, 200);
				rate = div64_u64(bytes * NSEC_PER_SEC, t);
				kunit_info(test, "%s %s zone, %u KiB reads: %llu B/s, datasheet %llu\n",
					   names[i], z ? "inner" : "outer",
					   sizes[s] / 2, rate, want);
				expect_within_pct(test, rate, want, 5);
				expect_within_pct(test, rate,
						  simhba_sustained_rate(d, g.next), 3);
				KUNIT_EXPECT_GE(test, d->st.ra_hits, 195);
			}
		}
	}
}

static u64 random_iops(struct kunit *test, struct simhba_disk *d,
		       unsigned int qd, unsigned int n)
{
	struct gen g = { .random = true, .nsect = 8, .span = d->capacity };
	u64 t;

	prandom_seed_state(&g.rs, 2026);
	t = run_closed(test, d, &g, qd, n);
	return div64_u64((u64)n * NSEC_PER_SEC, t);
}

/* QD1 random 4 KiB reads: 1 / (average seek + half a revolution). */
static void random_qd1_test(struct kunit *test)
{
	const struct simhba_profile *p = simhba_find_profile("sata-7200");
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	u64 iops = random_iops(test, d, 1, 3000);
	u64 want = div64_u64(NSEC_PER_SEC, p->avg_ns + d->rot_ns / 2);

	kunit_info(test, "sata-7200 QD1 random 4k: %llu IOPS, expected %llu\n",
		   iops, want);
	expect_within_pct(test, iops, want, 15);
}

/* Firmware reordering with 32 queued commands beats QD1. */
static void reorder_test(struct kunit *test)
{
	struct simhba_disk *d1 = new_disk(test, "sata-7200", 0);
	struct simhba_disk *d32 = new_disk(test, "sata-7200", 0);
	u64 qd1, qd32;

	d32->depth = 32;
	qd1 = random_iops(test, d1, 1, 3000);
	qd32 = random_iops(test, d32, 32, 3000);
	kunit_info(test, "sata-7200 random 4k: QD1 %llu IOPS, QD32 %llu IOPS\n",
		   qd1, qd32);
	KUNIT_EXPECT_GT(test, qd32 * 10, qd1 * 15);

	/* Depth 1 in the firmware means no reordering at all. */
	d32 = new_disk(test, "sata-7200", 0);
	d32->depth = 1;
	expect_within_pct(test, random_iops(test, d32, 32, 3000), qd1, 10);
}

/* Aging: a far request is not starved by a stream of near ones. */
static void aging_test(struct kunit *test)
{
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	/* On the heap: five ops overflow a KASAN kernel's stack frame limit. */
	struct simhba_op *ops = kunit_kcalloc(test, 5, sizeof(*ops), GFP_KERNEL);
	struct simhba_op *far = &ops[0], *near = &ops[1], *op;
	u64 now = 0;
	unsigned int i, served = 0;
	bool far_done = false;

	KUNIT_ASSERT_NOT_NULL(test, ops);
	d->depth = 32;
	d->age_ns = 50 * NSEC_PER_MSEC;
	*far = (struct simhba_op){ .lba = d->capacity - 8, .nsect = 8 };
	INIT_LIST_HEAD(&far->node);
	simhba_disk_enqueue(d, far, now, 0);
	for (i = 0; i < 4; i++) {
		near[i] = (struct simhba_op){ .lba = 1000 * i, .nsect = 8 };
		INIT_LIST_HEAD(&near[i].node);
		simhba_disk_enqueue(d, &near[i], now, 0);
	}
	simhba_disk_dispatch(d, now);
	while (!far_done && served < 2000) {
		now = simhba_disk_next_event(d);
		KUNIT_ASSERT_NE(test, now, U64_MAX);
		while (simhba_disk_reap(d, now, &op)) {
			if (op == far) {
				far_done = true;
				continue;
			}
			served++;
			op->lba = (op->lba + 4000) % 200000;
			simhba_disk_enqueue(d, op, now, 0);
		}
		simhba_disk_dispatch(d, now);
	}
	KUNIT_EXPECT_TRUE(test, far_done);
	KUNIT_EXPECT_LE(test, now, 50 * NSEC_PER_MSEC + 40 * NSEC_PER_MSEC);
}

/* Write-back cache: writes at bus speed with WCE, mechanical with FUA. */
static void write_cache_test(struct kunit *test)
{
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	struct simhba_op op = { .lba = 1 << 20, .nsect = 128, .write = true };
	struct simhba_op *done;
	u64 now, fast, slow;

	d->wce = true;
	INIT_LIST_HEAD(&op.node);
	simhba_disk_enqueue(d, &op, 0, 0);
	simhba_disk_dispatch(d, 0);
	fast = simhba_disk_next_event(d);
	KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d, fast, &done));
	KUNIT_EXPECT_EQ(test, fast, d->p.overhead_ns +
			simhba_xfer_ns(d, 128 * SIMHBA_SECTOR));
	KUNIT_EXPECT_EQ(test, d->st.wc_hits, 1);

	/* SYNCHRONIZE CACHE waits for the dirty data. */
	op.flush = true;
	simhba_disk_enqueue(d, &op, fast, 0);
	simhba_disk_dispatch(d, fast);
	now = simhba_disk_next_event(d);
	KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d, now, &done));
	KUNIT_EXPECT_GT(test, now - fast, d->p.overhead_ns);
	KUNIT_EXPECT_EQ(test, d->wc_dirty, 0);

	op.flush = false;
	op.fua = true;
	op.lba = 1 << 22;
	simhba_disk_enqueue(d, &op, now, 0);
	simhba_disk_dispatch(d, now);
	slow = simhba_disk_next_event(d) - now;
	KUNIT_EXPECT_GT(test, slow, fast + d->p.t2t_ns);
}

/* A stream for the invariants, in the outer zone of the disk. */
struct stream {
	const char *name;
	bool random;
	bool write;
	u32 write_pm, fua_pm, flush_every;
	u32 nsect;
};

static const struct stream streams[] = {
	{ "sequential read", .nsect = 256 },
	{ "sequential write", .write = true, .nsect = 256 },
	{ "random read", .random = true, .nsect = 128 },
	{ "random write", .random = true, .write = true, .nsect = 128 },
	{ "mixed", .random = true, .write_pm = 500, .nsect = 128 },
	{ "mixed, FUA and flushes", .random = true, .write_pm = 500,
	  .fua_pm = 100, .flush_every = 50, .nsect = 128 },
	{ "sequential, half writes", .write_pm = 500, .nsect = 256 },
};

static void stream_gen(struct simhba_disk *d, const struct stream *s,
		       struct gen *g)
{
	*g = (struct gen){ .random = s->random, .write = s->write,
			   .write_pm = s->write_pm, .fua_pm = s->fua_pm,
			   .flush_every = s->flush_every, .nsect = s->nsect,
			   .span = d->zone[0].nsect };
	prandom_seed_state(&g->rs, 7);
}

/*
 * Physics: whatever the stream, a disk moves no more bytes per modelled
 * second than the media rate of the zone they are in (+2% for rounding),
 * and its head is never busy for longer than the time that passed.  What
 * is still dirty in the cache at the end has not been moved yet.
 */
static void media_rate_test(struct kunit *test)
{
	static const u32 depths[] = { 1, 32 };
	unsigned int i, j, w, q;

	for (i = 0; i < simhba_nprofiles; i++) {
		const struct simhba_profile *p = &simhba_profiles[i];

		if (p->kind != SIMHBA_HDD)
			continue;
		for (j = 0; j < ARRAY_SIZE(streams); j++) {
			for (w = 0; w < 2; w++) {
				for (q = 0; q < ARRAY_SIZE(depths); q++) {
					struct simhba_disk *d = new_disk(test, p->name, 0);
					u64 t, moved, rate, media;
					struct gen g;

					d->wce = w;
					stream_gen(d, &streams[j], &g);
					t = run_closed(test, d, &g, depths[q], 1500);
					moved = d->st.read_bytes + d->st.write_bytes -
						d->wc_dirty * SIMHBA_SECTOR;
					rate = div64_u64(moved * NSEC_PER_SEC, t);
					media = simhba_media_rate(d, 0);
					KUNIT_EXPECT_LE_MSG(test, rate * 100, media * 102,
							    "%s, %s, wce %u, QD%u: %llu B/s, media %llu B/s",
							    p->name, streams[j].name, w,
							    depths[q], rate, media);
					/* a last write-back may end after the last completion */
					t = max(t, d->busy_end);
					KUNIT_EXPECT_LE_MSG(test, d->st.busy_ns, t,
							    "%s, %s, wce %u, QD%u: head busy %llu ns of %llu",
							    p->name, streams[j].name, w,
							    depths[q], d->st.busy_ns, t);
				}
			}
		}
	}
}

/*
 * A writer alone, once the cache is full, goes at the rate the head writes
 * the data back: at most the sustained rate (media rate, less the
 * switches), and near it for a sequential stream, since the cache lets
 * the write-backs follow each other.
 */
static void writer_alone_test(struct kunit *test)
{
	static const u32 depths[] = { 1, 4 };
	unsigned int i, q;

	for (i = 0; i < simhba_nprofiles; i++) {
		const struct simhba_profile *p = &simhba_profiles[i];

		if (p->kind != SIMHBA_HDD)
			continue;
		for (q = 0; q < ARRAY_SIZE(depths); q++) {
			struct simhba_disk *d = new_disk(test, p->name, 0);
			struct gen g = { .write = true, .nsect = 256 };
			u64 t0, t1, b0, rate, media = simhba_sustained_rate(d, 0);

			d->wce = true;
			/* fill the cache four times over */
			run_closed(test, d, &g, depths[q], p->wc_kib * 4 / 128);
			t0 = d->busy_end;
			b0 = d->st.write_bytes;
			KUNIT_EXPECT_GT(test, d->st.destages, 0);
			t1 = run_closed(test, d, &g, depths[q], 1000);
			rate = div64_u64((d->st.write_bytes - b0) * NSEC_PER_SEC,
					 t1 - t0);
			kunit_info(test, "%s QD%u: writer alone %llu B/s, sustained %llu B/s\n",
				   p->name, depths[q], rate, media);
			KUNIT_EXPECT_LE(test, rate * 100, media * 102);
			KUNIT_EXPECT_GE(test, rate * 100, media * 90);
		}
	}
}

static u64 one_op(struct kunit *test, struct simhba_disk *d,
		  struct simhba_op *op, u64 now)
{
	struct simhba_op *done;
	u64 fin;

	INIT_LIST_HEAD(&op->node);
	simhba_disk_enqueue(d, op, now, 0);
	simhba_disk_dispatch(d, now);
	fin = simhba_disk_next_event(d);
	KUNIT_EXPECT_NE(test, fin, U64_MAX);
	KUNIT_EXPECT_TRUE(test, simhba_disk_reap(d, fin, &done));
	return fin;
}

/*
 * A read that lies wholly in dirty cached data is served from the cache:
 * no media access, done after the bus transfer.  One that is only partly
 * dirty goes to the media.
 */
static void wc_read_test(struct kunit *test)
{
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	struct simhba_op op = { .lba = 1 << 24, .nsect = 2048, .write = true };
	u64 now, fin, bus = d->p.overhead_ns +
		simhba_xfer_ns(d, 40 * SIMHBA_SECTOR);

	d->wce = true;
	now = one_op(test, d, &op, 0);
	KUNIT_ASSERT_TRUE(test, op.hit);

	/* the tail of the extent: write-backs take it from the front */
	op = (struct simhba_op){ .lba = (1 << 24) + 2000, .nsect = 40 };
	fin = one_op(test, d, &op, now);
	KUNIT_EXPECT_TRUE(test, op.hit);
	KUNIT_EXPECT_EQ(test, fin - now, bus);
	KUNIT_EXPECT_EQ(test, d->st.wc_hits, 2);
	KUNIT_EXPECT_EQ(test, d->st.ra_hits, 0);
	/* a media read would have started a read-ahead stream */
	KUNIT_EXPECT_FALSE(test, d->ra[0].valid);

	/* half of it past the end of the dirty data: a media read */
	now = fin;
	op = (struct simhba_op){ .lba = (1 << 24) + 2028, .nsect = 40 };
	fin = one_op(test, d, &op, now);
	KUNIT_EXPECT_FALSE(test, op.hit);
	KUNIT_EXPECT_GT(test, fin - now, bus);
	KUNIT_EXPECT_EQ(test, d->st.wc_hits, 2);
}

/*
 * Write-backs are media work.  Random writes fill the cache faster than
 * the head empties it, and then each write waits for a write-back; a flush
 * costs every dirty extent a positioning and a transfer; and the idle disk
 * empties its cache, so that a write long after goes straight in.
 */
static void destage_test(struct kunit *test)
{
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	u64 bus = d->p.overhead_ns + simhba_xfer_ns(d, 128 * SIMHBA_SECTOR);
	u64 wb = d->p.t2t_ns + div_u64(d->rot_ns * 128, d->zone[0].spt);
	struct simhba_op op = { .nsect = 128, .write = true };
	struct rnd_state rs;
	u64 now = 0, fin, dirty, d0 = 0, t0 = 0;
	unsigned int i, fast = 0;

	d->wce = true;
	prandom_seed_state(&rs, 1);
	for (i = 0; i < 300; i++) {
		op.lba = (u64)(prandom_u32_state(&rs) % 100000) * 4096;
		fin = one_op(test, d, &op, now);
		fast += fin - now == bus;
		if (i == 199) {
			t0 = fin;
			d0 = d->st.destages;
		}
		now = fin;
	}
	/* the first ones go in at bus speed, later ones wait */
	KUNIT_EXPECT_GE(test, fast, SIMHBA_WC_EXTENTS);
	KUNIT_EXPECT_LT(test, fast, 200);
	KUNIT_EXPECT_EQ(test, d->wc_n, SIMHBA_WC_EXTENTS);
	KUNIT_EXPECT_GE(test, d->st.destages - d0, 100);
	KUNIT_EXPECT_GE(test, now - t0, 100 * wb);

	/* SYNCHRONIZE CACHE: a positioning and a transfer per extent */
	dirty = d->wc_dirty;
	d0 = d->st.destages;
	op.flush = true;
	fin = one_op(test, d, &op, now);
	KUNIT_EXPECT_EQ(test, d->wc_dirty, 0);
	KUNIT_EXPECT_EQ(test, d->st.destages - d0, SIMHBA_WC_EXTENTS);
	KUNIT_EXPECT_GE(test, fin - now, SIMHBA_WC_EXTENTS * wb);
	KUNIT_EXPECT_GE(test, (fin - now) * simhba_media_rate(d, 0),
			dirty * SIMHBA_SECTOR * NSEC_PER_SEC);
	now = fin;

	/* dirty the cache, then leave the disk idle for two seconds */
	op.flush = false;
	for (i = 0; i < SIMHBA_WC_EXTENTS; i++) {
		op.lba = (u64)(prandom_u32_state(&rs) % 100000) * 4096;
		now = one_op(test, d, &op, now);
	}
	KUNIT_EXPECT_GT(test, d->wc_dirty, 128);
	now += 2 * NSEC_PER_SEC;
	op.lba = 7777777;
	fin = one_op(test, d, &op, now);
	KUNIT_EXPECT_EQ(test, fin - now, bus);
	KUNIT_EXPECT_EQ(test, d->wc_dirty, 128);
	KUNIT_EXPECT_LE(test, d->st.busy_ns, fin);
}

/*
 * The firmware writes back only once the head has been idle for
 * wb_idle_ns: reads (without read-ahead, so that the head is idle from
 * the end of each) that come sooner than that after the last one are
 * timed exactly as on a disk with a clean cache; a longer pause starts
 * the write-backs, and an idle disk empties its cache.
 */
static void destage_delay_test(struct kunit *test)
{
	struct simhba_disk *d = new_disk(test, "sata-7200", 0);
	struct simhba_disk *clean = new_disk(test, "sata-7200", 0);
	struct simhba_op op = { .nsect = 128, .write = true };
	u64 now = 0, t, fin;
	unsigned int i;

	d->wce = true;
	clean->wce = true;
	d->p.ra_kib = 0;
	clean->p.ra_kib = 0;
	for (i = 0; i < 4; i++) {
		op.lba = (u64)(i + 1) << 26;
		now = one_op(test, d, &op, now);
	}
	KUNIT_ASSERT_LT(test, now, d->wb_idle_ns);
	KUNIT_ASSERT_EQ(test, d->wc_n, 4);

	/* reads 1/3 of the delay apart: no write-back, no wait */
	op = (struct simhba_op){ .nsect = 8 };
	for (i = 0; i < 5; i++) {
		op.lba = 1000000 + i * 7000000;
		t = one_op(test, clean, &op, now);
		fin = one_op(test, d, &op, now);
		KUNIT_EXPECT_EQ_MSG(test, fin, t, "read %u", i);
		now = fin + div_u64(d->wb_idle_ns, 3);
	}
	KUNIT_EXPECT_EQ(test, d->st.destages, 0);
	KUNIT_EXPECT_EQ(test, d->wc_n, 4);

	/* a pause longer than the delay: write-backs begin */
	now += d->wb_idle_ns + 20 * NSEC_PER_MSEC;
	op.lba = 3000000;
	one_op(test, d, &op, now);
	KUNIT_EXPECT_GT(test, d->st.destages, 0);

	/* and an idle disk empties its cache */
	now += 2 * NSEC_PER_SEC;
	one_op(test, d, &op, now);
	KUNIT_EXPECT_EQ(test, d->wc_dirty, 0);
	KUNIT_EXPECT_EQ(test, d->st.destages, 4);

	/*
	 * A write cached after a long idle time is not written back before
	 * it came: a flush right after it pays for its write-back.
	 */
	now += NSEC_PER_SEC;
	op = (struct simhba_op){ .lba = 5 << 24, .nsect = 8, .write = true };
	now = one_op(test, d, &op, now);
	KUNIT_EXPECT_EQ(test, d->wc_n, 1);
	op = (struct simhba_op){ .flush = true };
	fin = one_op(test, d, &op, now + 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, d->st.destages, 5);
	KUNIT_EXPECT_GE(test, fin, now + 100 * NSEC_PER_USEC +
			simhba_xfer_ns(d, 8 * SIMHBA_SECTOR) + d->p.t2t_ns);
}

/*
 * @n disks with @qd operations each outstanding until @total have
 * completed on each; returns the model time of the last completion.
 */
static u64 run_host(struct kunit *test, struct simhba_disk **d,
		    struct gen *g, unsigned int n, unsigned int qd,
		    unsigned int total)
{
	unsigned int i, k, issued[4] = { 0 }, done = 0;
	struct simhba_op *ops, *op;
	u64 now = 0, t;

	KUNIT_ASSERT_LE(test, n, ARRAY_SIZE(issued));
	ops = kunit_kcalloc(test, n * qd, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < n; i++) {
		for (k = 0; k < qd; k++, issued[i]++) {
			gen_fill(&g[i], &ops[i * qd + k]);
			simhba_disk_enqueue(d[i], &ops[i * qd + k], 0, 0);
		}
		simhba_disk_dispatch(d[i], 0);
	}
	while (done < n * total) {
		t = U64_MAX;
		for (i = 0; i < n; i++)
			t = min(t, simhba_disk_next_event(d[i]));
		KUNIT_ASSERT_NE(test, t, U64_MAX);
		now = t;
		simhba_advance(d, n, now);
		for (i = 0; i < n; i++) {
			while (simhba_disk_reap(d[i], now, &op)) {
				done++;
				if (issued[i] >= total)
					continue;
				issued[i]++;
				gen_fill(&g[i], op);
				simhba_disk_enqueue(d[i], op, now, 0);
				simhba_disk_dispatch(d[i], now);
			}
		}
	}
	return now;
}

/*
 * Links: an SSD whose channels together outrun its own 300 MB/s link goes
 * at the link's rate; two disks on one 100 MB/s link share it, in total
 * at most its rate; on a full-duplex link a reader and a writer do not
 * take from each other.
 */
static void link_test(struct kunit *test)
{
	struct simhba_link *up, *down;
	struct simhba_disk *d[2];
	struct gen g[2];
	u64 t, r0, r1, rate;

	d[0] = new_disk(test, "ssd", 0);
	g[0] = (struct gen){ .nsect = 512 };
	t = run_host(test, d, g, 1, 8, 2000);
	rate = div64_u64(d[0]->st.read_bytes * NSEC_PER_SEC, t);
	kunit_info(test, "ssd QD8 sequential reads: %llu B/s, link %u MB/s\n",
		   rate, d[0]->p.iface_mbps);
	KUNIT_EXPECT_LE(test, rate, d[0]->p.iface_mbps * 1020000ULL);
	KUNIT_EXPECT_GE(test, rate, d[0]->p.iface_mbps * 900000ULL);
	KUNIT_EXPECT_LE(test, d[0]->own.busy_ns, t);

	up = kunit_kzalloc(test, sizeof(*up), GFP_KERNEL);
	down = kunit_kzalloc(test, sizeof(*down), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, up);
	KUNIT_ASSERT_NOT_NULL(test, down);
	simhba_link_init(up, 100);
	d[0] = new_disk(test, "u320-10k", 0);
	d[1] = new_disk(test, "u320-10k", 0);
	d[0]->link[0] = up;
	d[0]->link[1] = up;
	d[1]->link[0] = up;
	d[1]->link[1] = up;
	g[0] = (struct gen){ .nsect = 512 };
	g[1] = (struct gen){ .nsect = 512 };
	t = run_host(test, d, g, 2, 2, 1000);
	r0 = div64_u64(d[0]->st.read_bytes * NSEC_PER_SEC, t);
	r1 = div64_u64(d[1]->st.read_bytes * NSEC_PER_SEC, t);
	kunit_info(test, "two readers on a 100 MB/s link: %llu + %llu B/s\n",
		   r0, r1);
	KUNIT_EXPECT_LE(test, r0 + r1, 102000000ULL);
	KUNIT_EXPECT_GE(test, r0 + r1, 90000000ULL);
	KUNIT_EXPECT_GE(test, min(r0, r1) * 10, max(r0, r1) * 8);
	KUNIT_EXPECT_LE(test, up->busy_ns, t);

	/* full duplex: one link each way */
	simhba_link_init(up, 50);
	simhba_link_init(down, 50);
	d[0] = new_disk(test, "u320-10k", 0);
	d[1] = new_disk(test, "u320-10k", 0);
	d[1]->wce = true;
	d[0]->link[0] = up;
	d[1]->link[0] = up;
	d[0]->link[1] = down;
	d[1]->link[1] = down;
	g[0] = (struct gen){ .nsect = 512 };
	g[1] = (struct gen){ .nsect = 512, .write = true };
	t = run_host(test, d, g, 2, 2, 500);
	r0 = div64_u64(d[0]->st.read_bytes * NSEC_PER_SEC, t);
	r1 = div64_u64(d[1]->st.write_bytes * NSEC_PER_SEC, t);
	kunit_info(test, "reader and writer on a 50+50 MB/s link: %llu + %llu B/s\n",
		   r0, r1);
	KUNIT_EXPECT_LE(test, r0, 51000000ULL);
	KUNIT_EXPECT_LE(test, r1, 51000000ULL);
	KUNIT_EXPECT_GE(test, r0 + r1, 90000000ULL);
}

/*
 * Two disks on one link, open-loop hand-overs alternating between them,
 * the completion timer @lag late: the finish times do not move, since the
 * owner advances both disks in model time before each hand-over.
 */
static void run_host_lagged(struct kunit *test, struct simhba_disk **d,
			    struct gen *g, unsigned int n, u64 gap, u64 lag,
			    u64 *fin)
{
	struct simhba_op *ops, *op;
	unsigned int issued = 0, done = 0, i;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	while (done < n) {
		u64 enq = issued < n ? issued * gap : U64_MAX;
		u64 fire = min(simhba_disk_next_event(d[0]),
			       simhba_disk_next_event(d[1]));

		if (fire != U64_MAX)
			fire += lag;
		KUNIT_ASSERT_FALSE(test, enq == U64_MAX && fire == U64_MAX);
		if (enq <= fire) {
			i = issued & 1;
			simhba_advance(d, 2, enq);
			gen_fill(&g[i], &ops[issued]);
			simhba_disk_enqueue(d[i], &ops[issued], enq, 0);
			simhba_disk_dispatch(d[i], enq);
			issued++;
			continue;
		}
		simhba_advance(d, 2, fire);
		for (i = 0; i < 2; i++) {
			while (simhba_disk_reap(d[i], fire, &op)) {
				fin[op - ops] = op->finish;
				done++;
			}
		}
	}
}

static void link_lag_test(struct kunit *test)
{
	static const u64 lags[] = { 0, 100 * NSEC_PER_USEC, NSEC_PER_MSEC };
	const unsigned int n = 300;
	unsigned int l, k, j;
	u64 *fin[3];

	for (j = 1; j <= 4; j++) {
		/* from an overloaded link (j = 1) to a lightly loaded one */
		u64 gap = j * NSEC_PER_MSEC;

		for (l = 0; l < ARRAY_SIZE(lags); l++) {
			struct simhba_link *lk;
			struct simhba_disk *d[2];
			struct gen g[2];

			lk = kunit_kzalloc(test, sizeof(*lk), GFP_KERNEL);
			fin[l] = kunit_kcalloc(test, n, sizeof(u64), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, fin[l]);
			KUNIT_ASSERT_NOT_NULL(test, lk);
			simhba_link_init(lk, 40);
			for (k = 0; k < 2; k++) {
				d[k] = new_disk(test, "sata-7200", 0);
				d[k]->link[0] = lk;
				d[k]->link[1] = lk;
				g[k] = (struct gen){ .nsect = 128, .write_pm = 300,
						     .random = true, .span = 1 << 20 };
				prandom_seed_state(&g[k].rs, 3 + k);
			}
			run_host_lagged(test, d, g, n, gap, lags[l], fin[l]);
			if (!l)
				continue;
			for (k = 0; k < n; k++)
				if (fin[l][k] != fin[0][k])
					break;
			KUNIT_EXPECT_EQ_MSG(test, k, n,
					    "gap %llu ns, lag %llu ns: op %u finishes at %llu, %llu without lag",
					    gap, lags[l], k, k < n ? fin[l][k] : 0,
					    k < n ? fin[0][k] : 0);
		}
	}
}

/*
 * @k sequential readers of 128 KiB, one read each outstanding, their
 * streams 1/8 of the disk apart, until one of them has done @n reads, so
 * that all of them run all the time.  Each stream's reads go to @reads[],
 * its read-ahead hits to @hits[]; returns the model time of the end.
 */
static u64 run_streams(struct kunit *test, struct simhba_disk *d,
		       unsigned int k, unsigned int n, u64 think_ns,
		       unsigned int *reads, unsigned int *hits)
{
	struct simhba_op *ops, *op;
	unsigned int i;
	bool end = false;
	u64 now = 0;

	ops = kunit_kcalloc(test, k, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < k; i++) {
		hits[i] = 0;
		reads[i] = 0;
		ops[i] = (struct simhba_op){ .nsect = 256,
			.lba = div_u64(d->capacity, 8) * i };
		INIT_LIST_HEAD(&ops[i].node);
		simhba_disk_enqueue(d, &ops[i], now, 0);
	}
	simhba_disk_dispatch(d, now);
	while (!end) {
		now = simhba_disk_next_event(d);
		KUNIT_ASSERT_NE(test, now, U64_MAX);
		while (simhba_disk_reap(d, now, &op)) {
			i = op - ops;
			hits[i] += op->hit;
			end |= ++reads[i] == n;
			op->lba += 256;
			simhba_disk_enqueue(d, op, now, think_ns);
		}
		simhba_disk_dispatch(d, now);
	}
	return now;
}

/*
 * Interleaved sequential readers.  Readers that think between reads longer
 * than the others' reads take (50 ms here) leave the head idle, and it
 * prefetches for the stream it last served: with a segment per stream each
 * reader finds its next reads in its own segment, with one segment they
 * evict each other and every read is a seek.  Readers that keep a command
 * waiting (no think time) stop every prefetch at once, so segments cannot
 * help them: that is the deceptive idleness an anticipatory scheduler
 * exists for.  Prefetch is
 * head time: the disk moves no more than the media rate and the head is
 * never busy longer than the time passed.
 */
static void ra_segments_case(struct kunit *test, const char *name,
			     unsigned int k, u64 think)
{
	const unsigned int n = 300;
	unsigned int seg, s, reads[4], hits[4];
	u64 rate[2];

	for (seg = 0; seg < 2; seg++) {
		struct simhba_disk *d = new_disk(test, name, 0);
		u64 t, moved, media = simhba_media_rate(d, 0);

		if (seg)
			KUNIT_ASSERT_GE(test, d->ra_nseg, k);
		else
			d->ra_nseg = 1;
		t = run_streams(test, d, k, n, think, reads, hits);
		for (s = 0, moved = 0; s < k; s++)
			moved += reads[s] * 256ULL * SIMHBA_SECTOR;
		rate[seg] = div64_u64(moved * NSEC_PER_SEC, t);
		for (s = 0; s < k; s++) {
			kunit_info(test, "%s, %u streams, think %llu ns, %u segments: %llu B/s; stream %u: %u hits in %u reads\n",
				   name, k, think, d->ra_nseg, rate[seg], s,
				   hits[s], reads[s]);
			if (seg && think)
				KUNIT_EXPECT_GE(test, hits[s] * 3, reads[s]);
			else
				KUNIT_EXPECT_LE(test, hits[s] * 10, reads[s]);
		}
		KUNIT_EXPECT_LE(test, rate[seg] * 100, media * 102);
		KUNIT_EXPECT_LE(test, d->st.busy_ns, max(t, d->busy_end));
	}
	if (think)
		KUNIT_EXPECT_GT(test, rate[1], rate[0]);
	else
		KUNIT_EXPECT_LE(test, rate[1] * 10, rate[0] * 11);
}

static void ra_segments_test(struct kunit *test)
{
	static const char * const names[] = { "u320-10k", "sata-7200" };
	static const unsigned int ks[] = { 2, 4 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		for (j = 0; j < ARRAY_SIZE(ks); j++) {
			ra_segments_case(test, names[i], ks[j],
					 50 * NSEC_PER_MSEC);
			ra_segments_case(test, names[i], ks[j], 0);
		}
	}
}

/*
 * One reader reads [@lba, @lba + @span) in @nsect reads, one at a time,
 * each handed over when the one before has finished and reaching the
 * firmware @think_ns later, from *@now on; *@now becomes the time of the
 * last completion, *@hits counts the reads served from the read-ahead
 * buffer.  Returns the time the reads took.
 */
static u64 seq_pass(struct kunit *test, struct simhba_disk *d, u64 *now,
		    u64 lba, u64 span, u32 nsect, u64 think_ns, u32 *hits)
{
	struct simhba_op op, *done;
	u64 t0 = *now, pos;

	*hits = 0;
	for (pos = lba; pos < lba + span; pos += nsect) {
		op = (struct simhba_op){ .lba = pos, .nsect = nsect };
		INIT_LIST_HEAD(&op.node);
		simhba_disk_enqueue(d, &op, *now, think_ns);
		simhba_disk_dispatch(d, *now);
		*now = simhba_disk_next_event(d);
		KUNIT_ASSERT_NE(test, *now, U64_MAX);
		KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d, *now, &done));
		*hits += op.hit;
	}
	return *now - t0;
}

/*
 * The read-ahead buffer holds ra_segs segments of ra_kib, and no more:
 * however often a sequential reader has been over the same sectors, once
 * it reads more than the buffer holds it gets the rest from the media, no
 * faster than the media rate.  The passes are those of the transfer-size
 * sweep: the same span, four times the buffer, from its start with reads
 * of 1 KiB to 64 KiB and of 1 MiB, an idle second between passes; then
 * four times the span, twice.
 */
static void ra_capacity_test(struct kunit *test)
{
	static const char * const names[] = { "u320-10k", "sata-7200" };
	static const u32 sizes[] = { 2, 4, 8, 16, 32, 64, 128, 2048, 128, 128 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct simhba_disk *d = new_disk(test, names[i], 0);
		u64 buf = (u64)d->ra_nseg * d->p.ra_kib * 1024;
		u64 media = simhba_media_rate(d, 0), now = 0;

		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			u64 bytes = 4 * buf * (j < ARRAY_SIZE(sizes) - 2 ? 1 : 4);
			u64 t, least;
			u32 hits;

			t = seq_pass(test, d, &now, 0, bytes / SIMHBA_SECTOR,
				     sizes[j], 0, &hits);
			least = div64_u64((bytes - buf) * NSEC_PER_SEC, media);
			kunit_info(test, "%s, %llu KiB in %u KiB reads: %llu ns, %llu B/s, %u hits; at the media rate the bytes beyond the buffer take %llu ns\n",
				   names[i], bytes >> 10, sizes[j] / 2, t,
				   div64_u64(bytes * NSEC_PER_SEC, t), hits,
				   least);
			KUNIT_EXPECT_GE_MSG(test, t, least,
					    "%s: %llu KiB in %u KiB reads faster than the media rate allows beyond the buffer's %llu KiB",
					    names[i], bytes >> 10, sizes[j] / 2,
					    buf >> 10);
			now += NSEC_PER_SEC;
		}
	}
}

/*
 * A segment is a ring of ra_kib: after a sequential pass of four segments'
 * worth and an idle second, a read near the pass's start finds nothing
 * (the segment kept only the last ra_kib), and a read where the pass ended
 * finds what the head prefetched there.
 */
static void ra_ring_test(struct kunit *test)
{
	static const char * const names[] = { "u320-10k", "sata-7200" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct simhba_disk *d = new_disk(test, names[i], 0);
		u64 seg = (u64)d->p.ra_kib * 2, now = 0;
		u32 hits;

		seq_pass(test, d, &now, 0, 4 * seg, 128, 0, &hits);
		now += NSEC_PER_SEC;
		seq_pass(test, d, &now, 128, 128, 128, 0, &hits);
		KUNIT_EXPECT_EQ_MSG(test, hits, 0,
				    "%s: sector 128 still held after %llu KiB more",
				    names[i], 4 * seg / 2);
		seq_pass(test, d, &now, 4 * seg, 128, 128, 0, &hits);
		KUNIT_EXPECT_EQ_MSG(test, hits, 1,
				    "%s: the prefetch past the pass is gone",
				    names[i]);
	}
}

/*
 * A sequential reader that thinks between its reads finds each read in
 * the segment that the head fills ahead of it: when the segment is full
 * the head stops, and the next read resumes the stream without losing
 * what the segment holds.  Only the first read goes to the media.
 */
static void ra_think_test(struct kunit *test)
{
	static const char * const names[] = { "u320-10k", "sata-7200" };
	static const u32 sizes[] = { 8, 128 };
	static const u64 thinks[] = { 200000, 1000000, 5000000 };
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			for (k = 0; k < ARRAY_SIZE(thinks); k++) {
				struct simhba_disk *d = new_disk(test, names[i], 0);
				u32 n = 8192 / sizes[j], hits;
				u64 now = 0, t;

				t = seq_pass(test, d, &now, 0, 8192, sizes[j],
					     thinks[k], &hits);
				kunit_info(test, "%s, %u KiB reads, think %llu ns: %llu B/s, %u hits in %u reads\n",
					   names[i], sizes[j] / 2, thinks[k],
					   div64_u64(8192ULL * SIMHBA_SECTOR *
						     NSEC_PER_SEC, t),
					   hits, n);
				KUNIT_EXPECT_EQ(test, hits, n - 1);
			}
		}
	}
}

/*
 * Two u320-10k disks without read-ahead on one 2 MB/s link, so slow that
 * a 64 KiB transfer outlasts any positioning.
 */
static struct simhba_link *slow_pair(struct kunit *test,
				     struct simhba_disk **d)
{
	struct simhba_link *lk = kunit_kzalloc(test, sizeof(*lk), GFP_KERNEL);
	int k;

	if (!lk)
		return NULL;
	simhba_link_init(lk, 2);
	for (k = 0; k < 2; k++) {
		d[k] = new_disk(test, "u320-10k", 0);
		d[k]->p.ra_kib = 0;
		d[k]->link[0] = lk;
		d[k]->link[1] = lk;
	}
	return lk;
}

/* Hand @op over to @d at @now; the firmware decides at once if it can. */
static void hand_over(struct simhba_disk *d, struct simhba_op *op, u64 now)
{
	INIT_LIST_HEAD(&op->node);
	simhba_disk_enqueue(d, op, now, 0);
	simhba_disk_dispatch(d, now);
}

/*
 * A link serves transfers in the order their data is ready: a read
 * decided later whose data comes off the media sooner goes first, even
 * if it does not fit before the one decided earlier, which then moves back
 * and finishes later.
 */
static void link_order_test(struct kunit *test)
{
	struct simhba_disk *d[2];
	struct simhba_link *lk = slow_pair(test, d);
	struct simhba_op a, b, *op;
	u64 ns, fa, fb;

	KUNIT_ASSERT_NOT_NULL(test, lk);
	ns = simhba_xfer_ns(d[0], 128 * SIMHBA_SECTOR);
	/* a far read, decided first; a near one, decided just after */
	a = (struct simhba_op){ .lba = d[0]->capacity - 1000, .nsect = 128 };
	b = (struct simhba_op){ .lba = 64, .nsect = 128 };
	hand_over(d[0], &a, 0);
	fa = a.finish;
	KUNIT_EXPECT_EQ(test, a.lend, fa);
	hand_over(d[1], &b, 1000);
	kunit_info(test, "far read: ready %llu, on the link %llu-%llu; near read: ready %llu, on the link %llu-%llu\n",
		   a.lready, a.lstart, a.lend, b.lready, b.lstart, b.lend);
	KUNIT_ASSERT_LT(test, b.lready, a.lready);
	KUNIT_ASSERT_LT(test, a.lready, b.lready + ns);
	KUNIT_EXPECT_EQ(test, b.lstart, b.lready);
	KUNIT_EXPECT_EQ(test, a.lstart, b.lend);
	KUNIT_EXPECT_EQ(test, a.finish, a.lend);
	KUNIT_EXPECT_GT(test, a.finish, fa);
	KUNIT_EXPECT_EQ(test, simhba_disk_next_event(d[0]), a.finish);

	/* they complete in that order, when the model said */
	fb = simhba_disk_next_event(d[1]);
	KUNIT_EXPECT_EQ(test, fb, b.lend);
	simhba_advance(d, 2, fb);
	KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d[1], fb, &op));
	KUNIT_EXPECT_PTR_EQ(test, op, &b);
	KUNIT_EXPECT_FALSE(test, simhba_disk_reap(d[0], fb, &op));
	simhba_advance(d, 2, a.finish);
	KUNIT_ASSERT_TRUE(test, simhba_disk_reap(d[0], a.finish, &op));
	KUNIT_EXPECT_PTR_EQ(test, op, &a);
	KUNIT_EXPECT_LE(test, lk->busy_ns, a.finish);
}

/*
 * Aborting a command whose transfer holds the link: what had not moved
 * when the abort came leaves the link's statistics, so that its busy time
 * stays within the time that passed and its bytes are the bytes moved;
 * the rest of the reservation is free for the next transfer.
 */
static void link_cancel_test(struct kunit *test)
{
	struct simhba_disk *d[2];
	struct simhba_link *lk = slow_pair(test, d);
	struct simhba_op a, b, c, *op;
	u64 ns, bytes = 128 * SIMHBA_SECTOR, now, half;

	KUNIT_ASSERT_NOT_NULL(test, lk);
	ns = simhba_xfer_ns(d[0], bytes);
	a = (struct simhba_op){ .lba = 64, .nsect = 128 };
	b = (struct simhba_op){ .lba = d[1]->capacity - 1000, .nsect = 128 };
	hand_over(d[0], &a, 0);
	hand_over(d[1], &b, 0);
	KUNIT_ASSERT_EQ(test, b.lstart, a.lend);
	KUNIT_EXPECT_EQ(test, lk->busy_ns, 2 * ns);
	KUNIT_EXPECT_EQ(test, lk->bytes, 2 * bytes);

	/* abort a half way through its transfer, and b before its own */
	half = a.lstart + ns / 2;
	simhba_advance(d, 2, half);
	simhba_disk_cancel(d[0], &a);
	KUNIT_EXPECT_EQ(test, lk->busy_ns, ns / 2 + ns);
	expect_within_pct(test, lk->bytes, bytes / 2 + bytes, 1);
	simhba_disk_cancel(d[1], &b);
	KUNIT_EXPECT_EQ(test, lk->busy_ns, ns / 2);
	expect_within_pct(test, lk->bytes, bytes / 2, 1);
	KUNIT_EXPECT_LE(test, lk->busy_ns, half);

	/* the disks finish their media work; nothing more crosses the link */
	now = max(simhba_disk_next_event(d[0]), simhba_disk_next_event(d[1]));
	simhba_advance(d, 2, now);
	KUNIT_EXPECT_FALSE(test, simhba_disk_reap(d[0], now, &op));
	KUNIT_EXPECT_FALSE(test, simhba_disk_reap(d[1], now, &op));
	KUNIT_EXPECT_LE(test, lk->busy_ns, now);
	KUNIT_EXPECT_TRUE(test, list_empty(&lk->busy));

	/* the next read has the link from when its data is ready */
	c = (struct simhba_op){ .lba = 64, .nsect = 128 };
	hand_over(d[0], &c, now);
	KUNIT_EXPECT_EQ(test, c.lstart, c.lready);
	KUNIT_EXPECT_EQ(test, lk->busy_ns, ns / 2 + ns);
}

static void raid0_split_test(struct kunit *test)
{
	u64 mlba[SIMHBA_MAX_MEMBERS];
	u32 mn[SIMHBA_MAX_MEMBERS];

	/* 4 members, 128-sector chunks: one full stripe and a bit. */
	KUNIT_EXPECT_EQ(test, simhba_raid0_split(64, 4 * 128 + 8, 4, 128,
						 mlba, mn), 4);
	KUNIT_EXPECT_EQ(test, mlba[0], 64);
	KUNIT_EXPECT_EQ(test, mn[0], 64 + 72);	/* chunks 0 and 4 */
	KUNIT_EXPECT_EQ(test, mlba[1], 0);
	KUNIT_EXPECT_EQ(test, mn[1], 128);
	KUNIT_EXPECT_EQ(test, mlba[3], 0);
	KUNIT_EXPECT_EQ(test, mn[3], 128);

	/* Inside one chunk of member 2, stripe 5. */
	KUNIT_EXPECT_EQ(test, simhba_raid0_split(5 * 4 * 128 + 2 * 128 + 10, 8,
						 4, 128, mlba, mn), 1);
	KUNIT_EXPECT_EQ(test, mlba[2], 5 * 128 + 10);
	KUNIT_EXPECT_EQ(test, mn[2], 8);
	KUNIT_EXPECT_EQ(test, mn[0], 0);
}

/* An SSD has no positioning cost and serves its channels in parallel. */
static void ssd_test(struct kunit *test)
{
	struct simhba_disk *d1 = new_disk(test, "ssd", 0);
	struct simhba_disk *d8 = new_disk(test, "ssd", 0);
	u64 qd1 = random_iops(test, d1, 1, 2000);
	u64 qd8 = random_iops(test, d8, 8, 2000);

	KUNIT_EXPECT_EQ(test, simhba_seek_ns(d1, 100), 0);
	KUNIT_EXPECT_GT(test, qd8, qd1 * 6);
}

/*
 * The driver's loop with a late timer: operation k is handed over at
 * k * @gap (an open loop, so the hand-overs do not depend on the lag), and
 * the member timer fires @lag after each predicted completion.  The finish
 * time of each operation goes to @fin.
 */
static void run_lagged(struct kunit *test, struct simhba_disk *d,
		       struct gen *g, unsigned int n, u64 gap, u64 lag,
		       u64 *fin)
{
	struct simhba_op *ops, *op;
	unsigned int issued = 0, done = 0;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	while (done < n) {
		u64 enq = issued < n ? issued * gap : U64_MAX;
		u64 fire = simhba_disk_next_event(d);

		if (fire != U64_MAX)
			fire += lag;
		KUNIT_ASSERT_FALSE(test, enq == U64_MAX && fire == U64_MAX);
		if (enq <= fire) {
			gen_fill(g, &ops[issued]);
			simhba_disk_enqueue(d, &ops[issued], enq, 0);
			simhba_disk_dispatch(d, enq);
			issued++;
			continue;
		}
		while (simhba_disk_reap(d, fire, &op)) {
			KUNIT_ASSERT_NOT_NULL(test, op);
			fin[op - ops] = op->finish;
			done++;
		}
	}
}

/*
 * Host timer lag is not device time: with the completion timer 100 us or
 * 1 ms late, every operation of the same stream finishes at the same model
 * time as without lag, at a light load (the disk mostly idle) and at a
 * heavy one (a deep queue in the firmware), on every profile; for random
 * reads, and for a mix of reads, cached and FUA writes and flushes with
 * the write cache on, where write-backs fill the idle time.
 */
static void lag_stream(struct kunit *test, const char *name, bool mixed,
		       u64 gap, unsigned int n, u64 lag, u64 *fin)
{
	struct gen g = { .random = true, .nsect = 8 };
	struct simhba_disk *d = new_disk(test, name, 0);

	g.span = d->capacity;
	if (mixed) {
		d->wce = true;
		g.write_pm = 500;
		g.fua_pm = 100;
		g.flush_every = 40;
	}
	prandom_seed_state(&g.rs, 42);
	run_lagged(test, d, &g, n, gap, lag, fin);
}

static void timer_lag_test(struct kunit *test)
{
	static const u64 lags[] = { 100 * NSEC_PER_USEC, NSEC_PER_MSEC };
	const unsigned int n = 200;
	unsigned int i, j, k, l, m;
	u64 *ref, *got;

	ref = kunit_kcalloc(test, n, sizeof(*ref), GFP_KERNEL);
	got = kunit_kcalloc(test, n, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < simhba_nprofiles * 4; i++) {
		const struct simhba_profile *p = &simhba_profiles[i / 4];
		/* a mean service time: a positioning plus a transfer */
		u64 svc = p->kind == SIMHBA_SSD ?
			  div_u64(p->read_ns, p->channels) :
			  p->avg_ns + div_u64(30 * NSEC_PER_SEC, p->rpm);
		/* light: one every 3 service times; heavy: 4 a time */
		u64 gap = (i & 1) ? svc / 4 : 3 * svc;

		m = i & 2;
		j = i & 1;
		lag_stream(test, p->name, m, gap, n, 0, ref);
		for (l = 0; l < ARRAY_SIZE(lags); l++) {
			lag_stream(test, p->name, m, gap, n, lags[l], got);
			for (k = 0; k < n; k++)
				if (got[k] != ref[k])
					break;
			KUNIT_EXPECT_EQ_MSG(test, k, n,
					    "%s, %s, %s load, lag %llu ns: op %u finishes at %llu, %llu without lag",
					    p->name, m ? "mixed" : "reads",
					    j ? "heavy" : "light", lags[l], k,
					    k < n ? got[k] : 0, k < n ? ref[k] : 0);
		}
	}
}

static struct kunit_case simhba_model_cases[] = {
	KUNIT_CASE(seek_curve_test),
	KUNIT_CASE(rotation_test),
	KUNIT_CASE(stream_rate_test),
	KUNIT_CASE(random_qd1_test),
	KUNIT_CASE(reorder_test),
	KUNIT_CASE(aging_test),
	KUNIT_CASE(write_cache_test),
	KUNIT_CASE(wc_read_test),
	KUNIT_CASE(media_rate_test),
	KUNIT_CASE(writer_alone_test),
	KUNIT_CASE(destage_test),
	KUNIT_CASE(destage_delay_test),
	KUNIT_CASE(link_test),
	KUNIT_CASE(link_lag_test),
	KUNIT_CASE(link_order_test),
	KUNIT_CASE(link_cancel_test),
	KUNIT_CASE(ra_segments_test),
	KUNIT_CASE(ra_capacity_test),
	KUNIT_CASE(ra_ring_test),
	KUNIT_CASE(ra_think_test),
	KUNIT_CASE(raid0_split_test),
	KUNIT_CASE(ssd_test),
	KUNIT_CASE(timer_lag_test),
	{}
};

static struct kunit_suite simhba_model_suite = {
	.name = "simhba_model",
	.test_cases = simhba_model_cases,
};

kunit_test_suite(simhba_model_suite);

MODULE_DESCRIPTION("KUnit tests for the simhba disk model");
MODULE_LICENSE("GPL");
