# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/lab/pagecheck.py without a browser: the PNG
reader and what reading the report page finds.  The browser half runs in
tests/lab/010."""

import base64
import os
import struct
import sys
import tempfile
import unittest
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import pagecheck  # noqa: E402


def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + \
        struct.pack('>I', zlib.crc32(kind + body))


def make_png(w, h, pixel=lambda x, y: (255, 255, 255), filt=0):
    """An 8-bit RGB PNG; every row with filter filt (0 none, 2 up)."""
    raw, prev = b'', bytes(3 * w)
    for y in range(h):
        line = bytes(c for x in range(w) for c in pixel(x, y))
        if filt == 2:
            raw += b'\x02' + bytes((a - b) & 255 for a, b in zip(line, prev))
        else:
            raw += b'\x00' + line
        prev = line
    return pagecheck.PNG_SIG + \
        chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + \
        chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


def img(name, data):
    return '<img alt="%s figure" src="data:image/png;base64,%s">' % (
        name, base64.b64encode(data).decode())


class Png(unittest.TestCase):
    def test_whole(self):
        self.assertEqual(pagecheck.png_image(make_png(3, 2))[:2], (3, 2))

    def test_cut(self):
        data = make_png(3, 2)
        with self.assertRaisesRegex(ValueError, 'cut'):
            pagecheck.png_image(data[:-20])

    def test_corrupt(self):
        data = bytearray(make_png(3, 2))
        data[40] ^= 1
        with self.assertRaisesRegex(ValueError, 'corrupt'):
            pagecheck.png_image(bytes(data))

    def test_not_png(self):
        with self.assertRaisesRegex(ValueError, 'signature'):
            pagecheck.png_image(b'GIF89a' + bytes(40))

    def test_pixels_unfiltered(self):
        dot = make_png(4, 4, lambda x, y: (0, 0, 0) if (x, y) == (2, 1)
                       else (255, 255, 255), filt=2)
        w, h, rows = pagecheck.png_pixels(dot)
        self.assertEqual((w, h), (4, 4))
        self.assertEqual(rows[1][6:9], b'\0\0\0')
        self.assertEqual(rows[2][6:9], b'\xff\xff\xff')
        self.assertAlmostEqual(pagecheck.ink(rows, 3), 1 / 16)

    def test_blank(self):
        w, h, rows = pagecheck.png_pixels(make_png(5, 5, filt=2))
        self.assertEqual(pagecheck.ink(rows, 3), 0)


class Page(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.page = os.path.join(self.dir.name, 'index.html')
        with open(os.path.join(self.dir.name, 'a.json'), 'w') as fh:
            fh.write('{}')

    def check(self, body, figures=('a',)):
        with open(self.page, 'w') as fh:
            fh.write('<!DOCTYPE html><html><body>%s</body></html>' % body)
        return pagecheck.check_file(self.page, figures)

    def test_good(self):
        self.assertEqual(self.check(img('a', make_png(2, 2)) +
                                    '<a href="a.json">a.json</a>'
                                    '<a href="#a">a</a>'), [])

    def test_missing_figure(self):
        self.assertEqual(self.check(img('a', make_png(2, 2)), ('a', 'b')),
                         ['b: no figure on the page'])

    def test_broken_figure(self):
        bad = self.check(img('a', make_png(2, 2)[:30]))
        self.assertEqual(len(bad), 1)
        self.assertRegex(bad[0], '^a: the figure is not a whole PNG')

    def test_file_figure(self):
        bad = self.check('<img alt="a figure" src="a.png">')
        self.assertRegex(bad[0], 'not an embedded PNG')
        self.assertRegex(bad[1], 'missing or empty file: a.png')

    def test_network_and_script(self):
        bad = self.check(img('a', make_png(2, 2)) +
                         '<link rel="stylesheet" href="https://x/y.css">'
                         '<script>1</script>')
        self.assertEqual(bad, ['the page runs 1 script(s)',
                               '<link href> leaves the page: '
                               'https://x/y.css'])

    def test_dead_link(self):
        self.assertEqual(self.check(img('a', make_png(2, 2)) +
                                    '<a href="b.csv">b</a>'),
                         ['<a href> names a missing or empty file: b.csv'])


if __name__ == '__main__':
    unittest.main()
