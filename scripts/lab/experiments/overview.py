# SPDX-License-Identifier: GPL-2.0
"""Every elevator on a simhba sata-7200 disk: a streaming reader against a
buffered writer, and 2 sequential readers (the generic table only).

The guest side is overview.sh, next to this file."""

from experiment import Experiment


EXPERIMENT = Experiment(
    'overview',
    'every elevator on a simhba sata-7200 disk: streaming reader '
    'vs buffered writer, and 2 sequential readers',
    [('reader_MBps', 'reader MB/s'),
     ('disk_write_MBps', 'writer MB/s'),
     ('two_readers_MBps', '2 readers MB/s')],
    baseline=('elevator', 'mq-deadline'), minutes=15)
