// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ownership of simhba's commands (simhba_io.c): a
 * command's completion timer, an abort and a device reset may reach it in
 * any order, and whatever the order it is completed once and unmapped
 * once.  The tests drive the driver's own transitions on a LUN without
 * disks (commands with no operations queued) and count completions.
 *
 * And of the model's domains (simhba_main.c): which LUNs share a lock and
 * are stepped together, and that a LUN of a host without a shared link
 * never steps another's disk.
 */

#include <kunit/test.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "simhba.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The parties that may reach a command, as the driver runs them. */
enum own_event {
	EV_REAP,	/* the timer sees the last operation finish */
	EV_FINISH,	/* the timer completes what it reaped */
	EV_ABORT,	/* the error handler aborts the command */
	EV_RESET,	/* a device reset */
	EV_QUICK,	/* the quick timer of a command without media */
	EV_N,
};

struct own_fix {
	struct simhba_host h;
	struct simhba_lun lun;
	struct simhba_cmd c;
	struct list_head timer_done;	/* the completion timer's list */
	unsigned int done;		/* scsi_done() calls */
	unsigned int aborted;		/* completions the midlayer makes */
	unsigned int unmaps;
};

static struct own_fix *fix_new(struct kunit *test)
{
	struct own_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->lun.dom = &f->lun.own;
	spin_lock_init(&f->lun.dom->lock);
	f->lun.host = &f->h;
	INIT_LIST_HEAD(&f->lun.inflight);
	INIT_LIST_HEAD(&f->timer_done);
	INIT_LIST_HEAD(&f->c.node);
	INIT_LIST_HEAD(&f->c.done);
	f->c.lun = &f->lun;
	f->c.mapped = true;
	return f;
}

/* What simhba_finish() does with a command, counted. */
static void finish(struct own_fix *f, struct simhba_cmd *c, bool done)
{
	if (c->mapped) {
		f->unmaps++;
		c->mapped = false;
	}
	if (done)
		f->done++;
	else
		f->aborted++;
}

static void issue_media(struct own_fix *f)
{
	spin_lock_irq(&f->lun.dom->lock);
	simhba_cmd_issue(&f->lun, &f->c);
	spin_unlock_irq(&f->lun.dom->lock);
}

static void run_event(struct own_fix *f, enum own_event ev)
{
	struct simhba_cmd *c, *tmp;
	LIST_HEAD(list);
	bool mine;

	switch (ev) {
	case EV_REAP:
		/* member_timer_fn(): the command's last operation */
		spin_lock_irq(&f->lun.dom->lock);
		simhba_cmd_reaped(&f->c, &f->timer_done);
		spin_unlock_irq(&f->lun.dom->lock);
		break;
	case EV_FINISH:
		list_for_each_entry_safe(c, tmp, &f->timer_done, done) {
			list_del_init(&c->done);
			if (simhba_own_release(c, SIMHBA_OWN_TIMER))
				finish(f, c, true);
		}
		break;
	case EV_QUICK:
		/* cmd_timer_fn() */
		spin_lock_irq(&f->lun.dom->lock);
		mine = simhba_own_take(&f->c, SIMHBA_OWN_QUICK,
				       SIMHBA_OWN_TIMER);
		spin_unlock_irq(&f->lun.dom->lock);
		if (mine && simhba_own_release(&f->c, SIMHBA_OWN_TIMER))
			finish(f, &f->c, true);
		break;
	case EV_ABORT:
		/* simhba_eh_abort() */
		spin_lock_irq(&f->lun.dom->lock);
		mine = simhba_cmd_abort_take(&f->lun, &f->c);
		spin_unlock_irq(&f->lun.dom->lock);
		if (mine && simhba_own_release(&f->c, SIMHBA_OWN_ABORT))
			finish(f, &f->c, false);
		break;
	case EV_RESET:
		/* simhba_reset_lun() */
		spin_lock_irq(&f->lun.dom->lock);
		simhba_lun_reset_take(&f->lun, &list);
		spin_unlock_irq(&f->lun.dom->lock);
		list_for_each_entry_safe(c, tmp, &list, done) {
			list_del_init(&c->done);
			if (simhba_own_release(c, SIMHBA_OWN_RESET))
				finish(f, c, true);
		}
		break;
	default:
		break;
	}
}

static void expect_once(struct kunit *test, struct own_fix *f,
			const enum own_event *order, unsigned int n)
{
	char s[16];
	unsigned int i;

	for (i = 0; i < n; i++)
		s[i] = "RFASQ"[order[i]];
	s[n] = 0;
	KUNIT_EXPECT_EQ_MSG(test, f->done + f->aborted, 1, "order %s", s);
	KUNIT_EXPECT_EQ_MSG(test, f->unmaps, 1, "order %s", s);
	KUNIT_EXPECT_EQ_MSG(test, f->c.owner, SIMHBA_OWN_NONE, "order %s", s);
	KUNIT_EXPECT_TRUE_MSG(test, list_empty(&f->c.node), "order %s", s);
	KUNIT_EXPECT_TRUE_MSG(test, list_empty(&f->c.done), "order %s", s);
	KUNIT_EXPECT_TRUE_MSG(test, list_empty(&f->lun.inflight), "order %s",
			      s);
}

/* Run @events on a fresh media command in every order, REAP before FINISH. */
static void every_order(struct kunit *test, const enum own_event *events,
			unsigned int n, bool quick)
{
	enum own_event order[EV_N];
	unsigned int perm[EV_N], i, j, tried = 0;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (;;) {
		bool reaped = false, valid = true;
		struct own_fix *f;

		for (i = 0; i < n; i++) {
			order[i] = events[perm[i]];
			if (order[i] == EV_REAP)
				reaped = true;
			if (order[i] == EV_FINISH && !reaped)
				valid = false;
		}
		if (valid) {
			f = fix_new(test);
			if (quick)
				f->c.owner = SIMHBA_OWN_QUICK;
			else
				issue_media(f);
			for (i = 0; i < n; i++)
				run_event(f, order[i]);
			/* a timer that lost the command finishes its list */
			run_event(f, EV_FINISH);
			expect_once(test, f, order, n);
			tried++;
		}
		/* the next permutation, in lexicographic order */
		for (i = n - 1; i > 0 && perm[i - 1] > perm[i]; i--)
			;
		if (!i)
			break;
		for (j = n - 1; perm[j] < perm[i - 1]; j--)
			;
		swap(perm[i - 1], perm[j]);
		for (j = n - 1; i < j; i++, j--)
			swap(perm[i], perm[j]);
	}
	KUNIT_EXPECT_GT(test, tried, 0);
}

/* Completion against abort against reset: 12 orders. */
static void media_complete_abort_reset(struct kunit *test)
{
	static const enum own_event ev[] = {
		EV_REAP, EV_FINISH, EV_ABORT, EV_RESET
	};

	every_order(test, ev, ARRAY_SIZE(ev), false);
}

/* Two aborts (the midlayer's, then SG_IO's) and two resets. */
static void media_repeated_eh(struct kunit *test)
{
	static const enum own_event ev[] = {
		EV_REAP, EV_FINISH, EV_ABORT, EV_ABORT, EV_RESET
	};
	static const enum own_event ev2[] = {
		EV_REAP, EV_FINISH, EV_RESET, EV_RESET
	};

	every_order(test, ev, ARRAY_SIZE(ev), false);
	every_order(test, ev2, ARRAY_SIZE(ev2), false);
}

/* A command lost in the firmware: only the error handler completes it. */
static void media_lost(struct kunit *test)
{
	static const enum own_event ev[] = { EV_ABORT, EV_RESET };

	every_order(test, ev, ARRAY_SIZE(ev), false);
}

/* A command without media: its quick timer against abort and reset. */
static void quick_timer_abort_reset(struct kunit *test)
{
	static const enum own_event ev[] = { EV_QUICK, EV_ABORT, EV_RESET };

	every_order(test, ev, ARRAY_SIZE(ev), true);
}

/* A reset takes every command still at the disks, and only those. */
static void reset_takes_inflight_only(struct kunit *test)
{
	struct own_fix *f = fix_new(test);
	struct simhba_cmd *more;
	LIST_HEAD(list);
	unsigned int i, n = 0;

	more = kunit_kcalloc(test, 3, sizeof(*more), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, more);
	issue_media(f);
	spin_lock_irq(&f->lun.dom->lock);
	for (i = 0; i < 3; i++) {
		INIT_LIST_HEAD(&more[i].node);
		INIT_LIST_HEAD(&more[i].done);
		simhba_cmd_issue(&f->lun, &more[i]);
	}
	/* the timer has reaped the first of them */
	simhba_cmd_reaped(&more[0], &f->timer_done);
	simhba_lun_reset_take(&f->lun, &list);
	spin_unlock_irq(&f->lun.dom->lock);

	KUNIT_EXPECT_EQ(test, more[0].owner, SIMHBA_OWN_TIMER);
	KUNIT_EXPECT_EQ(test, f->c.owner, SIMHBA_OWN_RESET);
	KUNIT_EXPECT_EQ(test, more[1].owner, SIMHBA_OWN_RESET);
	KUNIT_EXPECT_EQ(test, more[2].owner, SIMHBA_OWN_RESET);
	KUNIT_EXPECT_TRUE(test, list_empty(&f->lun.inflight));
	while (!list_empty(&list)) {
		list_del_init(list.next);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&f->timer_done));
}

/* Only the owner gives a command up, and only once. */
static void release_once(struct kunit *test)
{
	struct own_fix *f = fix_new(test);
	bool first, second;

	issue_media(f);
	KUNIT_EXPECT_FALSE(test, simhba_own_release(&f->c, SIMHBA_OWN_TIMER));
	KUNIT_EXPECT_FALSE(test, simhba_own_release(&f->c, SIMHBA_OWN_ABORT));
	spin_lock_irq(&f->lun.dom->lock);
	first = simhba_cmd_abort_take(&f->lun, &f->c);
	second = simhba_cmd_abort_take(&f->lun, &f->c);
	spin_unlock_irq(&f->lun.dom->lock);
	KUNIT_EXPECT_TRUE(test, first);
	KUNIT_EXPECT_FALSE(test, second);
	KUNIT_EXPECT_FALSE(test, simhba_own_release(&f->c, SIMHBA_OWN_RESET));
	KUNIT_EXPECT_TRUE(test, simhba_own_release(&f->c, SIMHBA_OWN_ABORT));
	KUNIT_EXPECT_FALSE(test, simhba_own_release(&f->c, SIMHBA_OWN_ABORT));
	/* the request is reused: issued again, it belongs to the disks */
	issue_media(f);
	KUNIT_EXPECT_EQ(test, f->c.owner, SIMHBA_OWN_DISK);
	KUNIT_EXPECT_FALSE(test, list_empty(&f->lun.inflight));
}

/* ---- domains: which disks a LUN's owner steps ----------------------------- */

struct dom_fix {
	struct simhba_pers pers;
	struct simhba_host h;
	struct simhba_lun lun[2];
	struct simhba_member m[2];
	struct simhba_op op;
};

static void dom_free(void *h)
{
	simhba_host_domains_free(h);
}

/* Two LUNs of one sata-7200 disk each, on a host with a link or without. */
static struct dom_fix *dom_fix_new(struct kunit *test, unsigned int link_mbps)
{
	const struct simhba_profile *p = simhba_find_profile("sata-7200");
	struct dom_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, p);
	f->pers.link_mbps = link_mbps;
	f->h.pers = &f->pers;
	f->h.nluns = ARRAY_SIZE(f->lun);
	f->h.lun = f->lun;
	simhba_link_init(&f->h.link[0], link_mbps);
	for (i = 0; i < ARRAY_SIZE(f->lun); i++) {
		struct simhba_disk *d = &f->m[i].disk;

		KUNIT_ASSERT_EQ(test, simhba_disk_init(d, p, 0), 0);
		if (link_mbps) {
			d->link[0] = &f->h.link[0];
			d->link[1] = &f->h.link[0];
		}
		f->m[i].lun = &f->lun[i];
		f->lun[i].m = &f->m[i];
		f->lun[i].nmembers = 1;
		f->lun[i].host = &f->h;
	}
	KUNIT_ASSERT_EQ(test, simhba_host_domains(&f->h), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dom_free, &f->h),
			0);
	return f;
}

/*
 * A read is handed to LUN 1's disk at 0, and LUN 0's owner (a command or
 * a completion of LUN 0) brings its domain up to 1 s, long after the read
 * finished.  True if LUN 1's disk moved with it.
 */
static bool dom_steps_other(struct kunit *test, struct dom_fix *f)
{
	struct simhba_disk *d1 = &f->m[1].disk;

	f->op = (struct simhba_op){ .lba = 1 << 20, .nsect = 8 };
	spin_lock_irq(&f->lun[1].dom->lock);
	simhba_disk_enqueue(d1, &f->op, 0, 0);
	simhba_disk_dispatch(d1, 0);
	spin_unlock_irq(&f->lun[1].dom->lock);
	KUNIT_ASSERT_LT(test, simhba_disk_next_event(d1), (u64)NSEC_PER_SEC);

	spin_lock_irq(&f->lun[0].dom->lock);
	simhba_lun_advance(&f->lun[0], NSEC_PER_SEC);
	spin_unlock_irq(&f->lun[0].dom->lock);
	return d1->now == NSEC_PER_SEC || !list_empty(&d1->done);
}

/*
 * A host without a link or a per-command cost: each LUN is its own
 * domain, and one LUN's owner neither locks nor steps another's disk,
 * which its own owner still brings up to date.
 */
static void domain_per_lun(struct kunit *test)
{
	struct dom_fix *f = dom_fix_new(test, 0);
	struct simhba_op *op;

	KUNIT_EXPECT_PTR_NE(test, f->lun[0].dom, f->lun[1].dom);
	KUNIT_EXPECT_PTR_NE(test, &f->lun[0].dom->lock, &f->lun[1].dom->lock);
	KUNIT_EXPECT_EQ(test, f->lun[0].dom->ndisks, 1);
	KUNIT_EXPECT_FALSE(test, dom_steps_other(test, f));
	KUNIT_EXPECT_EQ(test, f->m[1].disk.now, 0);

	spin_lock_irq(&f->lun[1].dom->lock);
	simhba_lun_advance(&f->lun[1], NSEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, simhba_disk_reap(&f->m[1].disk, NSEC_PER_SEC,
						 &op));
	spin_unlock_irq(&f->lun[1].dom->lock);
}

/* A shared link: one domain, and every owner steps every disk on it. */
static void domain_shared_link(struct kunit *test)
{
	struct dom_fix *f = dom_fix_new(test, 150);

	KUNIT_EXPECT_PTR_EQ(test, f->lun[0].dom, f->lun[1].dom);
	KUNIT_EXPECT_PTR_EQ(test, f->lun[0].dom, &f->h.shared);
	KUNIT_EXPECT_EQ(test, f->h.shared.ndisks, 2);
	KUNIT_EXPECT_TRUE(test, dom_steps_other(test, f));
}

/* The adapter's processor alone makes a host one domain too. */
static void domain_shared_processor(struct kunit *test)
{
	struct dom_fix *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->h.pers = &f->pers;
	f->h.cmd_ns = 30 * NSEC_PER_USEC;
	f->h.nluns = ARRAY_SIZE(f->lun);
	f->h.lun = f->lun;
	KUNIT_ASSERT_EQ(test, simhba_host_domains(&f->h), 0);
	KUNIT_EXPECT_PTR_EQ(test, f->lun[0].dom, &f->h.shared);
	KUNIT_EXPECT_PTR_EQ(test, f->lun[1].dom, &f->h.shared);
	simhba_host_domains_free(&f->h);
}

static struct kunit_case simhba_domain_cases[] = {
	KUNIT_CASE(domain_per_lun),
	KUNIT_CASE(domain_shared_link),
	KUNIT_CASE(domain_shared_processor),
	{}
};

static struct kunit_suite simhba_domain_suite = {
	.name = "simhba_domain",
	.test_cases = simhba_domain_cases,
};

static struct kunit_case simhba_own_cases[] = {
	KUNIT_CASE(media_complete_abort_reset),
	KUNIT_CASE(media_repeated_eh),
	KUNIT_CASE(media_lost),
	KUNIT_CASE(quick_timer_abort_reset),
	KUNIT_CASE(reset_takes_inflight_only),
	KUNIT_CASE(release_once),
	{}
};

static struct kunit_suite simhba_own_suite = {
	.name = "simhba_own",
	.test_cases = simhba_own_cases,
};

kunit_test_suites(&simhba_own_suite, &simhba_domain_suite);

MODULE_DESCRIPTION("KUnit tests for the command and model ownership of simhba");
MODULE_LICENSE("GPL");
