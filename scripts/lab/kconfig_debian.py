#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The lab kernel's block-layer options, taken from Debian's own 6.12 kernel.

Debian's configuration of its amd64 kernel ships in the package
linux-config-6.12.  The block layer, cgroup and I/O scheduler options a user
of that kernel boots with are the ones this module picks out of it (SELECT
below); scripts/lab/build.sh merges them into the lab kernel, and
tests/lab/015 checks that the built kernel still has them.  Where the lab
must differ, the symbol is listed in scripts/lab/config/debian.exceptions
with its reason, and a lab fragment sets it.

  kconfig_debian.py fragment            the options as a config fragment
  kconfig_debian.py check CONFIG        every difference between CONFIG
                                        (a built .config) and Debian's,
                                        apart from the listed exceptions;
                                        exit 1 if there is any, or if an
                                        exception no longer differs
  kconfig_debian.py source              the file and package version used
  kconfig_debian.py full                Debian's whole configuration, as a
                                        .config (make deb KCONFIG=debian)

DEBIAN_KCONFIG names another Debian configuration file (xz or plain),
DEBIAN_EXCEPTIONS another exceptions file.
"""

import lzma
import os
import re
import subprocess
import sys

PKG = "linux-config-6.12"
DEFAULT = "/usr/src/linux-config-6.12/config.amd64_none_amd64.xz"
EXCEPTIONS = os.environ.get("DEBIAN_EXCEPTIONS") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "config", "debian.exceptions")

# The block layer, its cgroup controllers and the I/O schedulers.
SELECT = re.compile(r"CONFIG_(BLK_\w*|\w*IOSCHED\w*|BFQ_\w*)$")

_LINE = re.compile(r"(CONFIG_\w+)=(.*)$|# (CONFIG_\w+) is not set$")


def parse_config(text):
    """{symbol: value} of a .config; 'n' for '# CONFIG_X is not set'."""
    values = {}
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m:
            if m.group(1):
                values[m.group(1)] = m.group(2)
            else:
                values[m.group(3)] = "n"
    return values


def select(values):
    """The block-layer part of a {symbol: value} map."""
    return {k: v for k, v in values.items() if SELECT.match(k)}


def parse_exceptions(text):
    """{symbol: reason} of an exceptions file ('SYMBOL reason...' lines)."""
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        sym, _, reason = line.partition(" ")
        if not SELECT.match(sym):
            raise ValueError(f"line {n}: {sym} is not a block-layer option")
        if not reason.strip():
            raise ValueError(f"line {n}: {sym} has no reason")
        if sym in out:
            raise ValueError(f"line {n}: {sym} listed twice")
        out[sym] = reason.strip()
    return out


def differences(debian, built, exceptions):
    """(differs, stale): the block-layer symbols whose values differ
    between Debian's configuration and a built one, as (symbol, debian,
    built) with 'n' for unset or absent, and the listed exceptions that no
    longer differ."""
    debian, built = select(debian), select(built)
    differs, stale = [], []
    for sym in sorted(set(debian) | set(built) | set(exceptions)):
        d, b = debian.get(sym, "n"), built.get(sym, "n")
        if d == b:
            if sym in exceptions:
                stale.append(sym)
        elif sym not in exceptions:
            differs.append((sym, d, b))
    return differs, stale


def fragment(debian, exceptions):
    """Debian's block-layer options as a fragment, exceptions left out."""
    lines = []
    for sym, val in sorted(select(debian).items()):
        if sym in exceptions:
            continue
        lines.append(f"# {sym} is not set" if val == "n" else f"{sym}={val}")
    return "\n".join(lines) + "\n"


def read_debian_text():
    path = os.environ.get("DEBIAN_KCONFIG", DEFAULT)
    if not os.path.exists(path):
        sys.exit(f"{path} not found: install Debian's configuration with "
                 f"'apt-get install {PKG}' (or run 'make deps')")
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return path, f.read()


def read_debian():
    path, text = read_debian_text()
    return path, parse_config(text)


def read_exceptions():
    with open(EXCEPTIONS) as f:
        try:
            return parse_exceptions(f.read())
        except ValueError as e:
            sys.exit(f"{EXCEPTIONS}: {e}")


def package_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", PKG],
                              capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv):
    if len(argv) == 2 and argv[1] == "fragment":
        path, debian = read_debian()
        sys.stdout.write(f"# Debian's block-layer options: {path} "
                         f"({PKG} {package_version()})\n")
        sys.stdout.write(fragment(debian, read_exceptions()))
        return 0
    if len(argv) == 2 and argv[1] == "full":
        _, text = read_debian_text()
        sys.stdout.write(text)
        return 0
    if len(argv) == 2 and argv[1] == "source":
        path, _ = read_debian()
        print(f"{path} ({PKG} {package_version()})")
        return 0
    if len(argv) == 3 and argv[1] == "check":
        _, debian = read_debian()
        with open(argv[2]) as f:
            built = parse_config(f.read())
        differs, stale = differences(debian, built, read_exceptions())
        for sym, d, b in differs:
            print(f"{sym}: Debian has {d}, the built kernel {b}, and "
                  f"debian.exceptions does not list it")
        for sym in stale:
            print(f"{sym}: listed in debian.exceptions but the same in "
                  f"both ({built.get(sym, 'n')}): drop the exception")
        return 1 if differs or stale else 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
