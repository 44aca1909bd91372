#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a bench run's report page (results/<run-id>/index.html) as a
person would see it.

  pagecheck.py PAGE [--figures NAME,...] [--browser CHROMIUM --shot PNG]

Without --browser the file is read: every <img> is an embedded PNG that
decodes to a non-empty image, every experiment named by --figures has
its figure, the page loads nothing from the network and runs no script,
and every file it links to exists and is not empty.

With --browser the page is also opened in headless chromium:
  * a copy of the page with a short probe script added (the page itself
    has none) records, once the page has loaded, each image's decoded and
    rendered size; chromium prints the resulting DOM (--dump-dom) and
    every figure must have decoded and be drawn with a non-zero size, no
    wider than the window;
  * chromium must log no console message and no load error;
  * the page itself (without the probe) is drawn into a screenshot of the
    window's size, which must not be one colour.

Prints one line per problem; exit status 1 if there is any.
"""

import base64
import html.parser
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

WINDOW = (1400, 3000)
PNG_SIG = b'\x89PNG\r\n\x1a\n'
PROBE_ATTR = 'data-pagecheck'


def png_size(data):
    """(width, height) from a PNG's header, or None if data is no PNG."""
    if len(data) < 24 or not data.startswith(PNG_SIG) or \
            data[12:16] != b'IHDR':
        return None
    return struct.unpack('>II', data[16:24])


def png_image(data):
    """(width, height, colour type, bytes a pixel, inflated data: the
    rows, each with its filter byte) of a whole PNG: every chunk's CRC holds, the header comes first and the end
    chunk last, and the image data inflates to all of its rows.  Raises
    ValueError saying what is wrong."""
    size = png_size(data)
    if size is None:
        raise ValueError('no PNG signature and header')
    w, h = size
    depth, ctype, interlace = data[24], data[25], data[28]
    idat, pos, end = b'', 8, False
    while pos + 12 <= len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc = data[pos + 8 + n:pos + 12 + n]
        if len(body) != n or len(crc) != 4 or \
                zlib.crc32(kind + body) != struct.unpack('>I', crc)[0]:
            raise ValueError('chunk %r at byte %d is cut or corrupt'
                             % (kind, pos))
        if kind == b'IDAT':
            idat += body
        pos += 12 + n
        if kind == b'IEND':
            end = True
            break
    if not end:
        raise ValueError('no end chunk: the PNG is cut at byte %d'
                         % len(data))
    if not w or not h:
        raise ValueError('the PNG is %dx%d' % (w, h))
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if channels is None or interlace:
        raise ValueError('colour type %d, interlace %d' % (ctype, interlace))
    bpp = max(1, channels * depth // 8)
    stride = (w * channels * depth + 7) // 8
    try:
        raw = zlib.decompress(idat)
    except zlib.error as ex:
        raise ValueError('the image data does not inflate (%s)' % ex)
    if len(raw) < h * (stride + 1):
        raise ValueError('the image data holds %d of %d bytes'
                         % (len(raw), h * (stride + 1)))
    return w, h, ctype, bpp, raw


def png_pixels(data):
    """(width, height, rows of pixel bytes) of an 8-bit, non-interlaced
    RGB or RGBA PNG (what chromium writes); None for any other PNG."""
    try:
        w, h, ctype, bpp, raw = png_image(data)
    except ValueError:
        return None
    if ctype not in (2, 6) or data[24] != 8:
        return None
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def ink(rows, bpp=4):
    """The share of pixels that differ from the top left one."""
    bg = rows[0][:bpp]
    total = other = 0
    for r in rows:
        for i in range(0, len(r), bpp):
            total += 1
            other += r[i:i + bpp] != bg
    return other / total if total else 0.0


class Page(html.parser.HTMLParser):
    """What the report page holds: its images, links, scripts, styles."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.imgs = []          # attribute dicts
        self.links = []         # (tag, attribute, value)
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'img':
            self.imgs.append(a)
        if tag == 'script':
            self.scripts += 1
        for k in ('src', 'href'):
            if a.get(k) is not None:
                self.links.append((tag, k, a[k]))

    handle_startendtag = handle_starttag


def parse(text):
    p = Page()
    p.feed(text)
    p.close()
    return p


def figure_name(img):
    """The experiment an <img> is the figure of (alt "NAME figure")."""
    alt = img.get('alt') or ''
    return alt[:-len(' figure')] if alt.endswith(' figure') else alt


def check_file(page, figures=()):
    """Problems found by reading the page (a list of strings)."""
    with open(page, encoding='utf-8') as fh:
        doc = parse(fh.read())
    where = os.path.dirname(os.path.abspath(page))
    bad = []
    seen = set()
    for img in doc.imgs:
        name = figure_name(img)
        src = img.get('src') or ''
        seen.add(name)
        m = re.match(r'data:image/png;base64,(.*)$', src, re.S)
        if not m:
            bad.append('%s: the figure is not an embedded PNG: %.60s'
                       % (name, src))
            continue
        try:
            data = base64.b64decode(m.group(1), validate=True)
        except ValueError as ex:
            bad.append('%s: the figure\'s base64 does not decode (%s)'
                       % (name, ex))
            continue
        try:
            png_image(data)
        except ValueError as ex:
            bad.append('%s: the figure is not a whole PNG: %s' % (name, ex))
    for name in figures:
        if name not in seen:
            bad.append('%s: no figure on the page' % name)
    if doc.scripts:
        bad.append('the page runs %d script(s)' % doc.scripts)
    for tag, attr, url in doc.links:
        if url.startswith('data:') or url.startswith('#'):
            continue
        if re.match(r'[a-z][a-z0-9+.-]*:|//', url, re.I):
            bad.append('<%s %s> leaves the page: %s' % (tag, attr, url))
            continue
        f = os.path.join(where, url)
        if not os.path.isfile(f) or not os.path.getsize(f):
            bad.append('<%s %s> names a missing or empty file: %s'
                       % (tag, attr, url))
    return bad


PROBE = '''<script>
window.addEventListener('load', function () {
  document.querySelectorAll('img').forEach(function (i) {
    var r = i.getBoundingClientRect();
    i.setAttribute('%(a)s', [i.complete ? 1 : 0, i.naturalWidth,
      i.naturalHeight, Math.round(r.width), Math.round(r.height)].join(' '));
  });
  document.body.setAttribute('%(a)s', window.innerWidth);
});
</script>
''' % {'a': PROBE_ATTR}


def chromium(browser, profile, args, url, timeout=120):
    """Run headless chromium; (status, stdout, stderr)."""
    cmd = [browser, '--headless', '--disable-gpu', '--no-sandbox',
           '--hide-scrollbars', '--no-first-run',
           '--user-data-dir=' + profile, '--enable-logging=stderr', '--v=0',
           '--window-size=%d,%d' % WINDOW] + args + [url]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, '', 'chromium took more than %d s' % timeout
    return p.returncode, p.stdout, p.stderr


LOAD_ERROR = re.compile(r':CONSOLE[:(]|net::ERR_|Failed to load|'
                        r'Not allowed to load', re.I)


def log_problems(what, stderr):
    return ['%s: chromium logged: %s' % (what, line.strip()[:200])
            for line in stderr.splitlines() if LOAD_ERROR.search(line)]


def check_browser(page, browser, shot):
    """Problems found by opening the page in headless chromium."""
    page = os.path.abspath(page)
    bad = []
    with tempfile.TemporaryDirectory(prefix='pagecheck-') as tmp:
        # The probed copy sits beside the page, so that relative links
        # resolve as they do for the page.
        with open(page, encoding='utf-8') as fh:
            text = fh.read()
        probe = os.path.join(os.path.dirname(page), '.pagecheck-probe.html')
        with open(probe, 'w', encoding='utf-8') as fh:
            fh.write(text.replace('</body>', PROBE + '</body>', 1))
        try:
            st, out, err = chromium(browser, os.path.join(tmp, 'p1'),
                                    ['--dump-dom'], 'file://' + probe)
        finally:
            os.unlink(probe)
        if st != 0:
            bad.append('--dump-dom: chromium ended with status %s: %s'
                       % (st, err.strip().splitlines()[-1:]))
        bad += log_problems('--dump-dom', err)
        dom = parse(out)
        body = re.search(r'<body[^>]*\s%s="(\d+)"' % PROBE_ATTR, out)
        if not body:
            bad.append('the page did not finish loading in chromium')
        width = int(body.group(1)) if body else WINDOW[0]
        if len(dom.imgs) != len(parse(text).imgs):
            bad.append('chromium shows %d images, the page has %d'
                       % (len(dom.imgs), len(parse(text).imgs)))
        for img in dom.imgs:
            name = figure_name(img)
            seen = (img.get(PROBE_ATTR) or '').split()
            if len(seen) != 5:
                bad.append('%s: chromium did not report the figure' % name)
                continue
            done, nw, nh, rw, rh = (int(v) for v in seen)
            if not done or not nw or not nh:
                bad.append('%s: the figure did not load in chromium '
                           '(decoded %dx%d)' % (name, nw, nh))
            if not rw or not rh:
                bad.append('%s: the figure is drawn %dx%d' % (name, rw, rh))
            if rw > width:
                bad.append('%s: the figure is %d px wide, the window %d'
                           % (name, rw, width))
        if os.path.exists(shot):
            os.unlink(shot)
        st, out, err = chromium(browser, os.path.join(tmp, 'p2'),
                                ['--screenshot=' + os.path.abspath(shot)],
                                'file://' + page)
        bad += log_problems('--screenshot', err)
    if not os.path.exists(shot) or not os.path.getsize(shot):
        return bad + ['no screenshot (chromium status %s)' % st]
    with open(shot, 'rb') as fh:
        data = fh.read()
    px = png_pixels(data)
    if px is None:
        return bad + ['the screenshot is no 8-bit RGB(A) PNG'
                      ' (%d bytes)' % len(data)]
    w, h, rows = px
    if (w, h) != WINDOW:
        bad.append('the screenshot is %dx%d, the window %dx%d'
                   % ((w, h) + WINDOW))
    bpp = len(rows[0]) // w if rows and w else 4
    share = ink(rows, bpp)
    if share < 0.02:
        bad.append('the screenshot is blank: %.2f%% of it is drawn'
                   % (100 * share))
    return bad


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='check a bench report page')
    ap.add_argument('page')
    ap.add_argument('--figures', default='',
                    help='comma-separated experiments that need a figure')
    ap.add_argument('--browser', help='headless chromium to open it with')
    ap.add_argument('--shot', default='screenshot.png',
                    help='where the screenshot goes (with --browser)')
    a = ap.parse_args(argv)
    names = [n for n in a.figures.split(',') if n]
    bad = check_file(a.page, names)
    if a.browser:
        bad += check_browser(a.page, a.browser, a.shot)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
