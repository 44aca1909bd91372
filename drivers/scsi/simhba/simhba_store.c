// SPDX-License-Identifier: GPL-2.0
/*
 * simhba: the data store, a sparse xarray of pages per LUN, limited to
 * store_mb for all LUNs together.
 */

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "simhba.h"

static atomic_long_t simhba_store_pages = ATOMIC_LONG_INIT(0);

/* ---- data store ------------------------------------------------------------- */

/*
 * Copy between @buf and the LUN's store; zeros written where nothing is
 * stored are not stored.  *@err: -ENOSPC when the store
 * reached simhba_store_mb (a lasting condition), -ENOMEM when a page could not be
 * had without sleeping (a passing one).
 */
void simhba_store_copy(struct simhba_lun *lun, u64 pos, void *buf, size_t len,
		       bool write, int *err)
{
	while (len) {
		pgoff_t idx = pos >> PAGE_SHIFT;
		size_t off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page = xa_load(&lun->store, idx);

		if (!write) {
			if (page)
				memcpy_from_page(buf, page, off, n);
			else
				memset(buf, 0, n);
		} else if (!simhba_nostore && (page || memchr_inv(buf, 0, n))) {
			/*
			 * Zeros need no page: a page never written reads as
			 * zeros already, so a file written full of zeros (a
			 * load's file, a disk image) takes no store.
			 */
			if (!page) {
				struct page *old;

				if (atomic_long_inc_return(&simhba_store_pages) >
				    (long)simhba_store_mb << (20 - PAGE_SHIFT)) {
					atomic_long_dec(&simhba_store_pages);
					*err = -ENOSPC;
					return;
				}
				page = NULL;
				if (!atomic_add_unless(&lun->nomem_next, -1, 0))
					page = alloc_page(GFP_NOWAIT | __GFP_ZERO |
							  __GFP_NOWARN);
				if (!page) {
					atomic_long_dec(&simhba_store_pages);
					*err = -ENOMEM;
					return;
				}
				old = xa_cmpxchg(&lun->store, idx, NULL, page,
						 GFP_NOWAIT | __GFP_NOWARN);
				if (old) {
					__free_page(page);
					atomic_long_dec(&simhba_store_pages);
					if (xa_is_err(old)) {
						*err = xa_err(old);
						return;
					}
					page = old;
				}
			}
			memcpy_to_page(page, off, buf, n);
		}
		pos += n;
		buf += n;
		len -= n;
	}
}
EXPORT_SYMBOL_IF_KUNIT(simhba_store_copy);

void simhba_store_free(struct simhba_lun *lun)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&lun->store, idx, page) {
		__free_page(page);
		atomic_long_dec(&simhba_store_pages);
	}
	xa_destroy(&lun->store);
}
EXPORT_SYMBOL_IF_KUNIT(simhba_store_free);
