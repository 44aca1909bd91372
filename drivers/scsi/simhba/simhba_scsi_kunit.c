// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of simhba's SCSI command emulation (simhba_scsi.c): the
 * answers to INQUIRY and its VPD pages, MODE SENSE, READ CAPACITY and
 * REPORT LUNS, the parsing of READ and WRITE, and the sense data of bad
 * commands.  A LUN is described by hand; no SCSI host is involved.
 */

#include <kunit/test.h>
#include <linux/unaligned.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_proto.h>

#include "simhba.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct scsi_fix {
	struct simhba_host h;
	struct simhba_lun lun;
	struct simhba_member m;
	u8 buf[SIMHBA_RESP_MAX];
	struct simhba_result res;
	struct simhba_rw rw;
};

static struct scsi_fix *fix_new(struct kunit *test, const char *profile)
{
	const struct simhba_profile *p = simhba_find_profile(profile);
	struct scsi_fix *f;

	KUNIT_ASSERT_NOT_NULL(test, p);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->h.id = 1;
	f->h.nluns = 3;
	f->lun.host = &f->h;
	f->lun.lun = 2;
	f->lun.capacity = 1000000;
	f->lun.profile = p->name;
	f->lun.nmembers = 1;
	f->lun.m = &f->m;
	f->lun.rotational = p->kind == SIMHBA_HDD;
	f->lun.wce = true;
	f->m.disk.p = *p;
	return f;
}

/* Run @cdb on @lun (NULL: no LUN there) with a fresh response buffer. */
static enum simhba_emul run(struct scsi_fix *f, const struct simhba_lun *lun,
			    const u8 *cdb)
{
	memset(f->buf, 0, sizeof(f->buf));
	memset(&f->rw, 0xa5, sizeof(f->rw));
	return simhba_emulate(lun, f->h.nluns, cdb, f->buf, &f->res, &f->rw);
}

static void expect_good(struct kunit *test, struct scsi_fix *f,
			enum simhba_emul e)
{
	KUNIT_EXPECT_EQ(test, e, SIMHBA_EMUL_DONE);
	KUNIT_EXPECT_EQ(test, f->res.key, 0);
}

static void expect_sense(struct kunit *test, struct scsi_fix *f,
			 enum simhba_emul e, u8 key, u8 asc)
{
	KUNIT_EXPECT_EQ(test, e, SIMHBA_EMUL_DONE);
	KUNIT_EXPECT_EQ(test, f->res.key, key);
	KUNIT_EXPECT_EQ(test, f->res.asc, asc);
	KUNIT_EXPECT_EQ(test, f->res.ascq, 0);
	KUNIT_EXPECT_EQ(test, f->res.len, 0);
}

/* Standard INQUIRY: a disk with CmdQue, vendor SIMHBA, the drive's product. */
static void inquiry_standard(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "u320-10k");
	u8 cdb[6] = { INQUIRY, 0, 0, 0, 96, 0 };

	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 96);
	KUNIT_EXPECT_EQ(test, f->buf[0], TYPE_DISK);
	KUNIT_EXPECT_EQ(test, f->buf[2], 6);
	KUNIT_EXPECT_EQ(test, f->buf[4], 91);
	KUNIT_EXPECT_TRUE(test, f->buf[7] & 0x02);
	KUNIT_EXPECT_MEMEQ(test, &f->buf[8], "SIMHBA  ", 8);
	KUNIT_EXPECT_MEMEQ(test, &f->buf[16], f->m.disk.p.product,
			   min_t(size_t, 16, strlen(f->m.disk.p.product)));

	/* the allocation length cuts the data */
	cdb[4] = 36;
	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 36);

	/* a RAID0 LUN names itself */
	f->lun.chunk = 128;
	cdb[4] = 96;
	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_MEMEQ(test, &f->buf[16], "SIM RAID0       ", 16);

	/* no LUN: peripheral qualifier 3, device type 0x1f */
	expect_good(test, f, run(f, NULL, cdb));
	KUNIT_EXPECT_EQ(test, f->buf[0], 0x7f);
	KUNIT_EXPECT_EQ(test, f->res.len, 36);
}

/* Every page the list of VPD pages names is there, with its own length. */
static void inquiry_vpd(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 cdb[6] = { INQUIRY, 1, 0x00, 0x01, 0x00, 0 };
	u8 pages[8];
	unsigned int i, n;

	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->buf[1], 0x00);
	n = f->buf[3];
	KUNIT_ASSERT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, f->res.len, 4 + n);
	memcpy(pages, &f->buf[4], n);
	KUNIT_EXPECT_EQ(test, pages[0], 0x00);
	KUNIT_EXPECT_EQ(test, pages[1], 0x80);
	KUNIT_EXPECT_EQ(test, pages[2], 0x83);
	KUNIT_EXPECT_EQ(test, pages[3], 0xb0);
	KUNIT_EXPECT_EQ(test, pages[4], 0xb1);
	for (i = 0; i < n; i++) {
		cdb[2] = pages[i];
		expect_good(test, f, run(f, &f->lun, cdb));
		KUNIT_EXPECT_EQ(test, f->buf[0], TYPE_DISK);
		KUNIT_EXPECT_EQ(test, f->buf[1], pages[i]);
		KUNIT_EXPECT_EQ(test, f->res.len,
				4 + get_unaligned_be16(&f->buf[2]));
	}

	/* unit serial number: host 1, LUN 2 */
	cdb[2] = 0x80;
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_MEMEQ(test, &f->buf[4], "SIMHBA010002", 12);

	/* device identification: one T10 vendor designator, ASCII */
	cdb[2] = 0x83;
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_EQ(test, f->buf[4], 0x02);
	KUNIT_EXPECT_EQ(test, f->buf[5], 0x01);
	KUNIT_EXPECT_EQ(test, f->buf[7] + 4, f->buf[3]);
	KUNIT_EXPECT_MEMEQ(test, &f->buf[8], "SIMHBA  sata-7200-01-0002", 25);

	/* block device characteristics: the rotation rate, 1 for an SSD */
	cdb[2] = 0xb1;
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&f->buf[4]),
			f->m.disk.p.rpm);
	f = fix_new(test, "ssd");
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&f->buf[4]), 1);

	/* the allocation length cuts a page */
	cdb[2] = 0xb0;
	cdb[3] = 0;
	cdb[4] = 10;
	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 10);
}

/* A page that is not there, or a page code without EVPD: INVALID FIELD IN CDB */
static void inquiry_bad_page(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	static const u8 bad[] = { 0x01, 0x7f, 0x86, 0x89, 0xb2, 0xff };
	u8 cdb[6] = { INQUIRY, 1, 0, 0, 0xff, 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cdb[2] = bad[i];
		expect_sense(test, f, run(f, &f->lun, cdb), ILLEGAL_REQUEST,
			     0x24);
	}
	cdb[1] = 0;
	cdb[2] = 0x80;
	expect_sense(test, f, run(f, &f->lun, cdb), ILLEGAL_REQUEST, 0x24);
}

/* The caching page's WCE bit follows the LUN's write cache. */
static void mode_sense_caching(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 ms6[6] = { MODE_SENSE, 0, 0x08, 0, 0xff, 0 };
	u8 ms10[10] = { MODE_SENSE_10, 0x08, 0x08, 0, 0, 0, 0, 0x01, 0x00, 0 };

	/* MODE SENSE(6): 4-byte header, a block descriptor, the page */
	expect_good(test, f, run(f, &f->lun, ms6));
	KUNIT_EXPECT_EQ(test, f->res.len, 4 + 8 + 20);
	KUNIT_EXPECT_EQ(test, f->buf[0], 4 + 8 + 20 - 1);
	KUNIT_EXPECT_EQ(test, f->buf[3], 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[4]), 1000000);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[8]), SIMHBA_SECTOR);
	KUNIT_EXPECT_EQ(test, f->buf[12], 0x08);
	KUNIT_EXPECT_EQ(test, f->buf[13], 0x12);
	KUNIT_EXPECT_EQ(test, f->buf[14] & 0x04, 0x04);

	f->lun.wce = false;
	run(f, &f->lun, ms6);
	KUNIT_EXPECT_EQ(test, f->buf[14] & 0x04, 0);

	/* MODE SENSE(10) with DBD: 8-byte header and the page */
	f->lun.wce = true;
	expect_good(test, f, run(f, &f->lun, ms10));
	KUNIT_EXPECT_EQ(test, f->res.len, 8 + 20);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&f->buf[0]), 8 + 20 - 2);
	KUNIT_EXPECT_EQ(test, f->buf[3], 0x10);
	KUNIT_EXPECT_EQ(test, f->buf[7], 0);
	KUNIT_EXPECT_EQ(test, f->buf[8], 0x08);
	KUNIT_EXPECT_EQ(test, f->buf[10] & 0x04, 0x04);

	/* changeable values: nothing can be changed by MODE SELECT */
	ms10[2] = 0x48;
	run(f, &f->lun, ms10);
	KUNIT_EXPECT_EQ(test, f->buf[10], 0);

	/* all pages: caching and control */
	ms6[2] = 0x3f;
	expect_good(test, f, run(f, &f->lun, ms6));
	KUNIT_EXPECT_EQ(test, f->res.len, 4 + 8 + 20 + 12);
	KUNIT_EXPECT_EQ(test, f->buf[32], 0x0a);

	/* the allocation length cuts the data, not the header's length */
	ms6[2] = 0x08;
	ms6[4] = 4;
	run(f, &f->lun, ms6);
	KUNIT_EXPECT_EQ(test, f->res.len, 4);
	KUNIT_EXPECT_EQ(test, f->buf[0], 4 + 8 + 20 - 1);

	/* saved values: SAVING PARAMETERS NOT SUPPORTED */
	ms6[2] = 0xc8;
	expect_sense(test, f, run(f, &f->lun, ms6), ILLEGAL_REQUEST, 0x39);
	/* a page the LUN has not: INVALID FIELD IN CDB */
	ms6[2] = 0x1c;
	expect_sense(test, f, run(f, &f->lun, ms6), ILLEGAL_REQUEST, 0x24);
}

static void read_capacity(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 rc10[10] = { READ_CAPACITY };
	u8 rc16[16] = { SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16 };

	expect_good(test, f, run(f, &f->lun, rc10));
	KUNIT_EXPECT_EQ(test, f->res.len, 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[0]), 999999);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[4]), SIMHBA_SECTOR);

	put_unaligned_be32(32, &rc16[10]);
	expect_good(test, f, run(f, &f->lun, rc16));
	KUNIT_EXPECT_EQ(test, f->res.len, 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(&f->buf[0]), 999999);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[8]), SIMHBA_SECTOR);

	/* beyond 2 TiB READ CAPACITY(10) says "use the 16-byte one" */
	f->lun.capacity = 1ULL << 33;
	run(f, &f->lun, rc10);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[0]), 0xffffffff);
	run(f, &f->lun, rc16);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(&f->buf[0]), (1ULL << 33) - 1);

	/* allocation length */
	put_unaligned_be32(12, &rc16[10]);
	run(f, &f->lun, rc16);
	KUNIT_EXPECT_EQ(test, f->res.len, 12);

	/* another service action of SERVICE ACTION IN(16) */
	rc16[1] = 0x12;
	expect_sense(test, f, run(f, &f->lun, rc16), ILLEGAL_REQUEST, 0x24);
}

static void report_luns(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 cdb[12] = { REPORT_LUNS };
	unsigned int i;

	put_unaligned_be32(SIMHBA_RESP_MAX, &cdb[6]);
	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 8 + 8 * 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&f->buf[0]), 8 * 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, scsilun_to_int((struct scsi_lun *)
						     &f->buf[8 + 8 * i]), i);

	/* also where there is no LUN 0 behind the address */
	expect_good(test, f, run(f, NULL, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 8 + 8 * 3);

	/* the most LUNs a host has fit the response buffer */
	f->h.nluns = SIMHBA_MAX_LUNS;
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_EQ(test, f->res.len, SIMHBA_RESP_MAX);
	KUNIT_EXPECT_EQ(test, scsilun_to_int((struct scsi_lun *)
					     &f->buf[SIMHBA_RESP_MAX - 8]),
			SIMHBA_MAX_LUNS - 1);

	put_unaligned_be32(16, &cdb[6]);
	run(f, &f->lun, cdb);
	KUNIT_EXPECT_EQ(test, f->res.len, 16);
}

static void expect_media(struct kunit *test, struct scsi_fix *f,
			 const u8 *cdb, u64 lba, u32 n, bool write, bool fua)
{
	KUNIT_EXPECT_EQ(test, run(f, &f->lun, cdb), SIMHBA_EMUL_MEDIA);
	KUNIT_EXPECT_EQ(test, f->res.key, 0);
	KUNIT_EXPECT_EQ(test, f->rw.lba, lba);
	KUNIT_EXPECT_EQ(test, f->rw.nsect, n);
	KUNIT_EXPECT_EQ(test, f->rw.write, write);
	KUNIT_EXPECT_EQ(test, f->rw.fua, fua);
	KUNIT_EXPECT_FALSE(test, f->rw.flush);
}

/* READ and WRITE (6), (10) and (16): LBA, length, FUA and the limits. */
static void read_write(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 c6[6] = { READ_6, 0xff, 0x00, 0x10, 0, 0 };
	u8 c10[10] = { WRITE_10, 0x08 };
	u8 c16[16] = { READ_16 };

	/* 6: a 21-bit LBA, and 0 sectors mean 256 */
	f->lun.capacity = 1 << 22;
	expect_media(test, f, c6, 0x1f0010, 256, false, false);
	c6[0] = WRITE_6;
	c6[1] = 0;
	c6[4] = 8;
	expect_media(test, f, c6, 0x10, 8, true, false);

	/* 10: FUA; 0 sectors is no operation */
	f->lun.capacity = 1000000;
	put_unaligned_be32(999999 - 7, &c10[2]);
	put_unaligned_be16(8, &c10[7]);
	expect_media(test, f, c10, 999992, 8, true, true);
	put_unaligned_be16(0, &c10[7]);
	expect_good(test, f, run(f, &f->lun, c10));
	KUNIT_EXPECT_EQ(test, f->res.len, 0);

	/* 16: a 64-bit LBA */
	f->lun.capacity = 1ULL << 40;
	put_unaligned_be64((1ULL << 40) - 16, &c16[2]);
	put_unaligned_be32(16, &c16[10]);
	expect_media(test, f, c16, (1ULL << 40) - 16, 16, false, false);

	/* the last sector is in, one more is LBA OUT OF RANGE */
	put_unaligned_be32(17, &c16[10]);
	expect_sense(test, f, run(f, &f->lun, c16), ILLEGAL_REQUEST, 0x21);
	/* 0 sectors at the capacity: no error, but no media operation */
	put_unaligned_be64(1ULL << 40, &c16[2]);
	put_unaligned_be32(0, &c16[10]);
	expect_good(test, f, run(f, &f->lun, c16));
	/* one sector there is out of range */
	put_unaligned_be32(1, &c16[10]);
	expect_sense(test, f, run(f, &f->lun, c16), ILLEGAL_REQUEST, 0x21);

	/* an LBA + length that wraps around 2^64 */
	put_unaligned_be64(U64_MAX - 1, &c16[2]);
	put_unaligned_be32(4, &c16[10]);
	expect_sense(test, f, run(f, &f->lun, c16), ILLEGAL_REQUEST, 0x21);

	/* READ(10) beyond a small LUN */
	f->lun.capacity = 100;
	c10[0] = READ_10;
	put_unaligned_be32(96, &c10[2]);
	put_unaligned_be16(5, &c10[7]);
	expect_sense(test, f, run(f, &f->lun, c10), ILLEGAL_REQUEST, 0x21);
}

static void synchronize_cache(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	u8 sc10[10] = { SYNCHRONIZE_CACHE };
	u8 sc16[16] = { SYNCHRONIZE_CACHE_16 };

	KUNIT_EXPECT_EQ(test, run(f, &f->lun, sc10), SIMHBA_EMUL_MEDIA);
	KUNIT_EXPECT_TRUE(test, f->rw.flush);
	KUNIT_EXPECT_EQ(test, f->rw.nsect, 0);
	KUNIT_EXPECT_EQ(test, run(f, &f->lun, sc16), SIMHBA_EMUL_MEDIA);
	KUNIT_EXPECT_TRUE(test, f->rw.flush);
}

/* Commands without data, REQUEST SENSE, and the ones simhba does not know. */
static void other_commands(struct kunit *test)
{
	struct scsi_fix *f = fix_new(test, "sata-7200");
	static const u8 unknown[] = { 0x04, 0x15, 0x42, 0x55, 0xa3, 0xff };
	u8 cdb[16] = { TEST_UNIT_READY };
	unsigned int i;

	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 0);
	cdb[0] = START_STOP;
	expect_good(test, f, run(f, &f->lun, cdb));
	cdb[0] = VERIFY;
	expect_good(test, f, run(f, &f->lun, cdb));

	/* REQUEST SENSE: fixed format, no sense */
	cdb[0] = REQUEST_SENSE;
	cdb[4] = 252;
	expect_good(test, f, run(f, &f->lun, cdb));
	KUNIT_EXPECT_EQ(test, f->res.len, 18);
	KUNIT_EXPECT_EQ(test, f->buf[0], 0x70);
	KUNIT_EXPECT_EQ(test, f->buf[2], NO_SENSE);
	cdb[4] = 0;

	/* INVALID COMMAND OPERATION CODE */
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		cdb[0] = unknown[i];
		expect_sense(test, f, run(f, &f->lun, cdb), ILLEGAL_REQUEST,
			     0x20);
	}

	/* no LUN: LOGICAL UNIT NOT SUPPORTED, even for a known command */
	cdb[0] = TEST_UNIT_READY;
	expect_sense(test, f, run(f, NULL, cdb), ILLEGAL_REQUEST, 0x25);
	cdb[0] = READ_10;
	expect_sense(test, f, run(f, NULL, cdb), ILLEGAL_REQUEST, 0x25);
}

/* Zeros written where nothing is stored take no page; data then does. */
static void store_zeros(struct kunit *test)
{
	struct simhba_lun *lun = kunit_kzalloc(test, sizeof(*lun), GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	int err = 0;

	KUNIT_ASSERT_NOT_NULL(test, lun);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	xa_init(&lun->store);

	/* two pages of zeros, one of them partly: nothing stored */
	simhba_store_copy(lun, 512, buf, 2 * PAGE_SIZE - 512, true, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&lun->store));

	/* one byte of data in the second page: that page only */
	buf[PAGE_SIZE + 7] = 0xa5;
	simhba_store_copy(lun, 0, buf, 2 * PAGE_SIZE, true, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_NULL(test, xa_load(&lun->store, 0));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&lun->store, 1));

	/* zeros over stored data overwrite it: it reads back as zeros */
	memset(buf, 0, 2 * PAGE_SIZE);
	simhba_store_copy(lun, PAGE_SIZE, buf, PAGE_SIZE, true, &err);
	buf[7] = 0xff;
	simhba_store_copy(lun, PAGE_SIZE, buf, PAGE_SIZE, false, &err);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, buf[7], 0);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, PAGE_SIZE), NULL);

	simhba_store_free(lun);
}

static struct kunit_case simhba_scsi_cases[] = {
	KUNIT_CASE(inquiry_standard),
	KUNIT_CASE(inquiry_vpd),
	KUNIT_CASE(inquiry_bad_page),
	KUNIT_CASE(mode_sense_caching),
	KUNIT_CASE(read_capacity),
	KUNIT_CASE(report_luns),
	KUNIT_CASE(read_write),
	KUNIT_CASE(synchronize_cache),
	KUNIT_CASE(other_commands),
	KUNIT_CASE(store_zeros),
	{}
};

static struct kunit_suite simhba_scsi_suite = {
	.name = "simhba_scsi",
	.test_cases = simhba_scsi_cases,
};

kunit_test_suite(simhba_scsi_suite);

MODULE_DESCRIPTION("KUnit tests for the SCSI command emulation of simhba");
MODULE_LICENSE("GPL");
