# SPDX-License-Identifier: GPL-2.0
"""The seed threads' own numbers, in one place.

Each experiment of scripts/lab/bench.py reproduces a measurement posted
on LKML (the seeds).  The tables and figures print the seed's numbers
beside the measured ones; they come from here, copied from the threads
as their authors printed them.  The seeds ran on other hardware (2003 to
2009 SCSI and FC disks), so an absolute seed value is shown for its
shape, and a ratio of two seed values is what a measured ratio compares
with.
"""

import statistics

# Seed 000: DBT-2 on 2.6.0-test3, aacraid, 4 GB.  STP table rows
# (NOTPM, CPU%, Blocks/s), two runs per elevator; the thread puts the
# profile of the bouncing kernel on the left and of the patched one (no
# bounce buffers) on the right, the rows are read in that order here.
SEED_000_STP = {
    'deadline': [(1313, 94.5, 9582.1), (1304, 94.1, 9685.0)],
    'as': [(1143, 92.6, 8848.5), (1175, 91.4, 8883.1)],
}
# Seed 000's readprofile: ticks of its bounce functions (bounce_copy_vec
# plus __blk_queue_bounce) without, then with, the patch that avoids
# bouncing.  None: neither is in that top 10, so each has at most the
# ticks of its 10th line (SEED_000_TOP10_LAST).
SEED_000_BOUNCE_TICKS = {
    'deadline': (77961 + 30048, 85122 + 24983),
    'as': (69264 + 20156, None),
}
SEED_000_TOP10_LAST = {'as': 6387}
# the seed's elevator names -> the lab's
SEED_000_ELEVATOR = {'deadline': 'mq-deadline', 'as': 'anticipatory'}

# Seed 001: Badari's vmstat samples (bi in cs), 20 dd readers on
# 2.5.47-mm3 with max_sectors 512, a sample every 5 s.  bi is KiB/s.
SEED_001 = {
    64: [(194765, 1762, 2183), (194611, 1761, 2122), (194509, 1774, 2150),
         (194816, 1762, 2132), (194765, 1764, 2177)],
    32: [(170755, 2354, 3477), (172771, 2363, 3512), (174031, 2372, 3576),
         (173074, 2384, 3538), (172670, 2364, 3502)],
}
SEED_001_INTERVAL_S = 5
# one dd read() call: 256 KiB
SEED_001_CALL_KIB = 256


def seed_001(seg):
    """The seed's figures for sg_segments=seg, in the lab's units:
    MBps (10^6 B/s), cs_per_s, in_per_s and, per dd read() of 256 KiB
    (bi / 256 calls a second), sys_cs_per_call and in_per_call.  {} for a
    value the seed did not run."""
    if seg not in SEED_001:
        return {}
    bi, intr, cs = (statistics.mean(s[i] for s in SEED_001[seg])
                    for i in range(3))
    calls = bi / SEED_001_CALL_KIB
    return {'MBps': bi * 1024 / 1e6, 'cs_per_s': cs, 'in_per_s': intr,
            'sys_cs_per_call': cs / calls, 'in_per_call': intr / calls}


# Seed 002: Alan Brunelle's random readers on an MSA1000 striped LUN,
# sum of MB/s over the N readers, per setup.
SEED_002_SETUPS = ['base', 'ioc off', 'ioc no idle', 'ioc idle']
SEED_002 = {
    2: [17.3, 17.1, 9.4, 9.1],
    4: [27.1, 27.1, 8.1, 8.2],
    8: [37.1, 37.1, 6.8, 7.1],
}


def seed_002(n, setup):
    """MB/s of the seed's setup with N readers, or None."""
    if n not in SEED_002 or setup not in SEED_002_SETUPS:
        return None
    return SEED_002[n][SEED_002_SETUPS.index(setup)]


# Seed 003: Grant Grundler's sgp_dd sweep, (real, user, sys) seconds per
# transfer size in KiB; the same amount of data at every size (the
# thread does not say how much), so only ratios between sizes compare.
SEED_003 = {
    'hw mirror': {1: (105.300, 1.120, 15.633), 2: (55.700, 4.399, 6.701),
                  4: (31.124, 0.830, 3.119), 8: (19.044, 0.511, 1.884),
                  16: (19.016, 0.175, 0.765), 32: (19.008, 0.089, 0.544),
                  64: (19.010, 0.050, 0.438)},
    'u320 disk': {1: (114.822, 2.828, 10.289), 2: (57.704, 1.386, 5.207),
                  4: (41.239, 0.736, 2.911), 8: (20.284, 0.373, 1.589),
                  16: (16.924, 0.192, 0.865), 32: (16.900, 0.088, 0.563),
                  64: (16.873, 0.057, 0.430)},
}
# its context switches a second over each sweep ("went from ~48K/s to
# 4130/s" on the mirror, "~44k ... down to ~4700" on the disk): the thread
# names no size, so the lab reads them as the sweep's ends, 1K and 64K
SEED_003_CS_PER_S = {'hw mirror': {1: 48000, 64: 4130},
                     'u320 disk': {1: 44000, 64: 4700}}

# Seed 004: Dan Williams' dd to md raid0, MB/s of five runs per kernel,
# the first one the base; bad: a run below 0.8x the base median.
SEED_004 = [
    ('2.6.25.8-fc8', [279, 281, 281, 279, 278]),
    ('54a6eb5c', [278, 278, 113, 69.2, 75.6]),
    ('54a6eb5c-nohighmem', [273, 275, 68.7, 277, 62.5]),
    ('2.6.26-rc8', [277, 277, 66.8, 73.7, 80.3]),
]
SEED_004_BAD_FACTOR = 0.8
