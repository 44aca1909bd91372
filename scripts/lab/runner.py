# SPDX-License-Identifier: GPL-2.0
"""Booting the lab's guests for bench.py: the clock a guest runs on
(LAB_ACCEL, LAB_ICOUNT_SHIFT, BENCH_SEED), the boots an experiment list
needs (plan_boots()), one boot run and watched to its end (run_boot(),
watch_boot()) with the progress and the time left, and what its guest
ran (root_doc(): the root's sha256 and the packages of its files)."""

import os
import re
import shutil
import signal
import subprocess
import time

from labpaths import LAB, TOP
from parsers import parse_rows

# make bench boots its guests with an instruction-counted clock unless
# LAB_ACCEL says otherwise (see Documentation/block/blk26-lab.rst).
DEFAULT_ACCEL = 'icount'
ACCELS = ('icount', 'tcg', 'auto', 'kvm')
# QEMU's -icount shift=N: 2^N ns of guest time per instruction, N <= 10
MAX_ICOUNT_SHIFT = 10
# the seed of fio's and pgbench's random numbers, and of QEMU's (-seed)
DEFAULT_SEED = 1
# ... and runs the experiments in a root on tmpfs unless BENCH_ROOT says 9p
DEFAULT_ROOT = 'tmpfs'
ROOTS = ('tmpfs', '9p')


def lab_clock(env):
    """(accel, icount shift, seed) from LAB_ACCEL, LAB_ICOUNT_SHIFT and
    BENCH_SEED, or raise ValueError with a message for the user.  The
    shift is None when LAB_ICOUNT_SHIFT is not set: each experiment then
    runs at its own (exp_shift())."""
    accel = env.get('LAB_ACCEL') or DEFAULT_ACCEL
    if accel not in ACCELS:
        raise ValueError('LAB_ACCEL=%s: use %s (default %s)'
                         % (accel, ', '.join(ACCELS), DEFAULT_ACCEL))
    shift = env.get('LAB_ICOUNT_SHIFT', '')
    if shift == '':
        shift = None
    elif re.match(r'^[0-9]+$', shift) and int(shift) <= MAX_ICOUNT_SHIFT:
        shift = int(shift)
    else:
        raise ValueError(
            'LAB_ICOUNT_SHIFT=%s: use an integer from 0 to %d (2^N ns per '
            'guest instruction: 0 is the fastest CPU the instruction-counted '
            'clock offers, 1 GIPS; "auto" follows the host\'s speed and is '
            'not repeatable)' % (shift, MAX_ICOUNT_SHIFT))
    seed = env.get('BENCH_SEED', '')
    if seed == '':
        seed = DEFAULT_SEED
    elif re.match(r'^[0-9]{1,9}$', seed):
        seed = int(seed)
    else:
        raise ValueError('BENCH_SEED=%s: use a non-negative integer' % seed)
    return accel, shift, seed


def icount_sleep(env):
    """LAB_ICOUNT_SLEEP (experimental, boot.sh): off (default), or on, an
    idle guest's clock following the host's."""
    v = env.get('LAB_ICOUNT_SLEEP') or 'off'
    if v not in ('on', 'off'):
        raise ValueError('LAB_ICOUNT_SLEEP=%s: use on or off' % v)
    return v


def timeout_scale(env):
    """BENCH_TIMEOUT_SCALE: how many times its usual timeout a guest gets
    (default 1, at most 100).  The usual one assumes a guest runs about as
    fast as the host's clock; on a loaded host a guest on the
    instruction-counted clock runs slower, which moves the wall time it
    takes, not its figures."""
    v = env.get('BENCH_TIMEOUT_SCALE') or '1'
    try:
        f = float(v)
    except ValueError:
        f = 0.0
    if not 1 <= f <= 100:
        raise ValueError('BENCH_TIMEOUT_SCALE=%s: use a number from 1 to 100'
                         % v)
    return f


def bench_root(env):
    """BENCH_ROOT: where the guest's programs come from while experiments
    run: tmpfs (default), a root on tmpfs holding a copy of what they run
    (boot.sh's LAB_GUEST_ROOT), or 9p, the host's root itself."""
    v = env.get('BENCH_ROOT') or DEFAULT_ROOT
    if v not in ROOTS:
        raise ValueError('BENCH_ROOT=%s: use %s (default %s)'
                         % (v, ' or '.join(ROOTS), DEFAULT_ROOT))
    return v


def not_icount_why(e, root=DEFAULT_ROOT):
    """Why experiment e runs under TCG when the lab's clock is the
    instruction-counted one, or None: it cannot while it reads the 9p
    root (no_icount_9p)."""
    return e.no_icount_9p if root == '9p' else None


def exp_shift(e, shift=None):
    """The icount shift experiment e's boots use: LAB_ICOUNT_SHIFT's
    (shift) when it is set, else the experiment's own."""
    return e.icount_shift if shift is None else shift


def boot_accel(e, p, default, root=DEFAULT_ROOT):
    """The accelerator a part's boot uses: the part's, else the lab's
    (LAB_ACCEL), except that an experiment that cannot run on the
    instruction-counted clock runs under TCG instead."""
    if p.accel:
        return p.accel
    if default == 'icount' and not_icount_why(e, root):
        return 'tcg'
    return default


def programs_of(script):
    """The words of a script's PROGRAMS="..." lines (the programs it runs
    beyond lib.sh's, for the root on tmpfs)."""
    words = []
    with open(script) as fh:
        for line in fh:
            m = re.match(r'^PROGRAMS="(.*)"$', line.rstrip('\n'))
            if m:
                words += m.group(1).split()
    return words


# the PATH boot.sh lists a root's programs with (the guest's)
GUEST_PATH = os.pathsep.join([os.path.join(LAB, 'guest-bin'), '/usr/sbin',
                              '/usr/bin', '/sbin', '/bin'])


def guest_root(items, env=None):
    """LAB_GUEST_ROOT for a boot of these (experiment, part) items: the
    programs of tests/common/programs (the runners' and their helpers'),
    of experiments/lib.sh and of each experiment's script, and
    the tests' directory, whose helpers (tests/common/rc, tests/simhba/rc,
    calibration.sh) the experiments source, then the words of a
    LAB_GUEST_ROOT in env.  boot.sh adds the lab's scripts and the
    kernel's modules.  A program or path this host lacks is left out, so
    that the experiment's own check notes it (as from the 9p root)
    instead of boot.sh refusing the whole boot."""
    exp = os.path.join(LAB, 'experiments')
    words = programs_of(os.path.join(TOP, 'tests', 'common', 'programs'))
    words += programs_of(os.path.join(exp, 'lib.sh'))
    for e, _ in items:
        words += programs_of(os.path.join(exp, e.name + '.sh'))
    words.append(os.path.join(TOP, 'tests'))
    words += ((env or {}).get('LAB_GUEST_ROOT') or '').split()
    have = [w for w in words
            if (os.path.exists(w) if os.path.isabs(w) else
                shutil.which(w, path=GUEST_PATH))]
    return ' '.join(dict.fromkeys(have))


def boot_cpus(e, p):
    return p.cpus or e.cpus


def clock_name(accel, shift):
    """What a table says about the clock its numbers were measured by."""
    if accel == 'icount':
        return 'icount shift=%d (%g ns per instruction)' % (shift, 2 ** shift)
    if accel == 'auto':
        return 'auto (KVM if it boots, else TCG: the host\'s wall clock)'
    return '%s (the host\'s wall clock)' % accel


def lab_doc(boots, shift, seed, root=DEFAULT_ROOT):
    """The JSON "lab" object: per part, the accelerator and vCPUs; the
    icount shift when a part ran on that clock; the seeds; the root the
    experiments ran in (tmpfs or 9p)."""
    doc = {'parts': boots, 'seed': seed, 'fio_randseed': seed,
           'pgbench_random_seed': seed, 'qemu_seed': seed, 'root': root}
    if any(b['accel'] == 'icount' for b in boots):
        doc['icount_shift'] = shift
    return doc


def lab_line(doc):
    """The clock line printed above a table."""
    parts = []
    for b in doc['parts']:
        what = clock_name(b['accel'], doc.get('icount_shift', 0))
        if b['accel'] == 'icount' and doc.get('icount_sleep') == 'on':
            what += ', sleep=on'
        if b.get('recorded'):
            # boot.sh's rr=record (Documentation/block/blk26-lab.rst)
            what += ', recorded'
        one = '%s%s, %d vCPU' % (b['part'] + ': ' if b['part'] else '', what,
                                 b['cpus'])
        # one boot per kernel configuration: each clock said once
        if one not in parts:
            parts.append(one)
    root = {'tmpfs': '; root on tmpfs', '9p': '; the host\'s root over 9p'}
    return '%s; seed %d%s' % ('; '.join(parts) or 'no boot', doc['seed'],
                              root.get(doc.get('root'), ''))


def git_describe():
    try:
        return subprocess.run(['git', '-C', TOP, 'describe', '--always',
                               '--dirty'], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def machine_doc(proc='/proc', qemu='qemu-system-x86_64'):
    """The JSON "machine" object: the host a run was measured on (its
    CPU model and count, memory, kernel and QEMU version); a value that
    cannot be read is None."""
    cpu, ncpu, mem = None, 0, None
    try:
        with open(os.path.join(proc, 'cpuinfo')) as fh:
            for line in fh:
                k, _, v = line.partition(':')
                if k.strip() == 'processor':
                    ncpu += 1
                elif k.strip() == 'model name' and cpu is None:
                    cpu = ' '.join(v.split())
    except OSError:
        pass
    try:
        with open(os.path.join(proc, 'meminfo')) as fh:
            for line in fh:
                f = line.split()
                if f[:1] == ['MemTotal:'] and len(f) >= 2:
                    mem = int(f[1]) * 1024
    except (OSError, ValueError):
        pass
    try:
        out = subprocess.run([qemu, '--version'], capture_output=True,
                             text=True, timeout=30).stdout
        ver = out.splitlines()[0].strip() if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        ver = None
    return {'cpu': cpu, 'cpus': ncpu or None, 'mem_bytes': mem,
            'host_kernel': os.uname().release, 'qemu': ver}


# the directories a merged /usr (Debian 12) links from the top: dpkg's
# database may know a file under either name (/bin/bash for
# /usr/bin/bash), and guest-root lists the real one
USR_MERGED = ('bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32')


def dpkg_names(path):
    """The names dpkg's database may know a file of the root by: its own,
    and on a merged /usr its name under the top's link (/usr/lib/x ->
    /lib/x)."""
    out = [path]
    parts = path.split('/')
    if len(parts) > 3 and parts[1] == 'usr' and parts[2] in USR_MERGED:
        out.append('/' + '/'.join(parts[2:]))
    return out


def dpkg_pattern(path):
    """path as dpkg -S takes it: a pattern, its wildcards escaped."""
    return re.sub(r'([*?\[\]\\])', r'\\\1', path)


def root_packages(files, run=None):
    """({file: [owning packages]}, ["package version", ...] sorted) of the
    files of a root (absolute host paths): one dpkg -S for them all and
    one dpkg-query -W for the packages found.  A file no package owns is
    not in the first; (None, None) when dpkg cannot be asked (no dpkg
    on the host)."""
    run = run or subprocess.run
    ask = {}
    for f in files:
        for name in dpkg_names(f):
            ask[name] = f
    owners = {}
    try:
        out = run(['dpkg', '-S', '--'] + [dpkg_pattern(p) for p in ask],
                  capture_output=True, text=True, errors='replace').stdout
    except OSError:
        return None, None
    for line in out.splitlines():
        # "pkg1, pkg2:amd64: /path"; "diversion by ..." lines name no owner
        pkgs, sep, path = line.partition(': ')
        if not sep or line.startswith('diversion by ') or path not in ask:
            continue
        have = owners.setdefault(ask[path], [])
        for p in pkgs.split(', '):
            if p and p not in have:
                have.append(p)
    names = sorted({p for ps in owners.values() for p in ps})
    versions = set()
    if names:
        try:
            out = run(['dpkg-query', '-W',
                       '--showformat=${Package} ${Version}\\n', '--'] +
                      names, capture_output=True, text=True,
                      errors='replace').stdout
        except OSError:
            return None, None
        versions = {line.strip() for line in out.splitlines()
                    if len(line.split()) == 2}
    return owners, sorted(versions)


def root_doc(guest, root=DEFAULT_ROOT, env=None, run=None):
    """The record of the root a boot's guest ran in, for each part's entry
    of the JSON's lab.parts ("guest_root"): on the instruction-counted
    clock every instruction the guest runs counts, those of the programs
    copied into its root too.  For the root on tmpfs: the sha256 of the
    initramfs boot.sh packed (its file root-sha256), the Debian packages
    that own the files it packed (root-files), as "name version" and
    sorted, and the files no package owns ("unowned": a file of
    guest-root's list, or a directory it copies whole, with a "/",
    when a file in it is no package's; the tree's paths as <tree>/...,
    the build's as <build>/...).  None where boot.sh wrote nothing (it
    stopped before it packed the root) or dpkg cannot be asked.  The
    host's root over 9p has nothing to hash: its record says 9p."""
    if root != 'tmpfs':
        return {'root': root}
    doc = {'root': root, 'sha256': None, 'packages': None, 'unowned': None}
    try:
        with open(os.path.join(guest, 'root-sha256')) as fh:
            doc['sha256'] = fh.read().strip() or None
    except OSError:
        pass
    try:
        with open(os.path.join(guest, 'root-files')) as fh:
            files = [line.rstrip('\n') for line in fh if line.strip()]
    except OSError:
        return doc
    dirs = []
    try:
        with open(os.path.join(guest, 'guest-root')) as fh:
            dirs = [line.split(' ', 1)[1].rstrip('\n').rstrip('/')
                    for line in fh if line.startswith('dir ')]
    except OSError:
        pass
    # the top's own links (/bin -> usr/bin) are the merged /usr's, no
    # package's file: dpkg would name the owners of the directories
    asked = [f for f in files if f.count('/') > 1]
    owners, doc['packages'] = root_packages(asked, run)
    if owners is None:
        return doc
    env = os.environ if env is None else env
    build = env.get('BUILD') or os.path.join(TOP, 'build')
    if not os.path.isabs(build):
        build = os.path.join(TOP, build)
    # the longest first: <build> may lie in <tree>
    places = sorted(((os.path.normpath(build), '<build>'),
                     (os.path.normpath(TOP), '<tree>')),
                    key=lambda x: -len(x[0]))

    def named(p):
        for prefix, name in places:
            if p == prefix or p.startswith(prefix + '/'):
                return name + p[len(prefix):]
        return p
    unowned = set()
    for f in files:
        if f in owners:
            continue
        under = [d for d in dirs if f.startswith(d + '/')]
        unowned.add(named(max(under, key=len)) + '/' if under else named(f))
    doc['unowned'] = sorted(unowned)
    return doc


def part_id(e, p):
    """What the guest calls a part: NAME, or NAME:PART."""
    return e.name if p.name is None else '%s:%s' % (e.name, p.name)


def plan_boots(exps, kernels, accel=DEFAULT_ACCEL, root=DEFAULT_ROOT,
               shift=None):
    """Group the experiments' parts into boots: one per (kernel
    configuration, memory, command line, accelerator, vCPUs, icount
    shift).  Returns [(kname, mem, append, accel, [(exp, part)], cpus,
    shift)]; the shift of a boot not on the counted clock is 0 (it has
    none, and boots under TCG differ in nothing else)."""
    boots, index = [], {}
    for e in exps:
        for p in e.parts:
            a, c = boot_accel(e, p, accel, root), boot_cpus(e, p)
            n = exp_shift(e, shift) if a == 'icount' else 0
            for k in (kernels if e.kernels and kernels else [None]):
                key = (k, e.mem, e.append, a, c, n)
                if key not in index:
                    index[key] = len(boots)
                    boots.append((k, e.mem, e.append, a, [], c, n))
                boots[index[key]][4].append((e, p))
    return boots


def run_boot(boot, guest, runs, scale, envx, t0, prog, seed=1,
             root=DEFAULT_ROOT):
    kname, mem, append, accel, items, cpus, shift = boot
    env = dict(os.environ, BENCH_RUNS=str(runs), BENCH_SCALE=str(scale),
               BENCH_SEED=str(seed), LAB_SEED=str(seed), LAB_QUIET='',
               **envx)
    user_root = env.pop('LAB_GUEST_ROOT', None)
    if root == 'tmpfs':
        env['LAB_GUEST_ROOT'] = guest_root(
            items, {'LAB_GUEST_ROOT': user_root or ''})
    if kname:
        env['BENCH_KERNEL_NAME'] = kname
    env['LAB_ACCEL'] = accel
    env['LAB_ICOUNT_SHIFT'] = str(shift)
    # a part's minutes are measured at its experiment's own icount shift.
    # A larger shift does not lengthen them: a guest second then holds
    # fewer instructions (less host time while the CPUs are busy, about
    # the same while they idle, which costs none with sleep=off).  A
    # smaller one can, up to 2^(own - shift) times for a CPU-bound run
    # (dbt2: 14 to 21 host seconds a guest second at shift 0, 1.4 to 2
    # at 3)
    minutes = sum(p.minutes * (2 ** max(0, e.icount_shift - shift)
                               if accel == 'icount' else 1)
                  for e, p in items)
    tmo = int((int(minutes * 60 * max(1.0, scale) * runs) +
               120 + 60 * len(items)) * timeout_scale(env))
    cmd = [os.path.join(LAB, 'boot.sh'), '-m', str(mem), '-c', str(cpus),
           '-t', str(tmo), '-o', guest]
    if root == 'tmpfs':
        # no virtio scratch disks (the experiments measure simhba's): the
        # kernel reads their partition tables from the host at boot, which
        # a guest that never waits for the host must not do
        cmd += ['-d', '0']
    if append:
        cmd += ['-a', append]
    ids = [part_id(e, p) for e, p in items]
    cmd += ['--', 'scripts/lab/experiments/run', ','.join(ids)]
    start = time.time()
    print('[bench] booting for %s%s (%d MB, %d CPU%s, %s, timeout %d s)'
          % (', '.join(ids),
             ' on kernel configuration %s' % kname if kname else '', mem,
             cpus, ', ' + append if append else '',
             clock_name(accel, shift), tmo), flush=True)
    proc = subprocess.Popen(cmd, cwd=TOP, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            errors='replace', start_new_session=True)

    def stop(signum, frame):
        # take the guest (QEMU under boot.sh's timeout) down with us
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except OSError:
            pass
        raise SystemExit(128 + signum)
    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT,
                                               signal.SIGHUP)}
    try:
        return watch_boot(proc, items, guest, kname, start, t0, prog)
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def run_eta(prog, now, t0):
    """', about N min left in the run', from the time the finished
    experiments took against their nominal minutes."""
    if not prog['done_min'] or prog['left_min'] <= 0:
        return ''
    rate = (now - t0) / prog['done_min']
    return ', about %d min left in the run' % max(
        1, round(rate * prog['left_min'] / 60))


# the note on rows the guest printed but did not hand to the host
CONSOLE_ROWS_NOTE = ('the guest ended before its output reached the host: '
                     'these rows were read from its console')


def console_files(guest, files, status):
    """The files an experiment printed on the console ('bench: file NAME
    LINE', see experiments/run), written to the guest's directory when
    the guest did not hand its output over whole (no exit-status: it
    timed out or died before the job ended, or during the copy), with a
    note among the rows; and the status of each experiment that ended
    ('bench: end ID status N')."""
    if os.path.exists(os.path.join(guest, 'exit-status')):
        return
    for name, lines in files.items():
        if not re.fullmatch(r'[\w:.-]+\.(rows|ctx)', name):
            continue
        p = os.path.join(guest, name)
        if name.endswith('.rows'):
            lines = lines + ['{"note": "%s"}' % CONSOLE_ROWS_NOTE]
        with open(p, 'w') as fh:
            fh.write(''.join(x + '\n' for x in lines))
    for pid, st in status.items():
        with open(os.path.join(guest, pid.replace(':', '.') + '.status'),
                  'w') as fh:
            fh.write(st + '\n')


def watch_boot(proc, items, guest, kname, start, t0, prog):
    minutes = {part_id(e, p): p.minutes for e, p in items}
    plan, cur, kernel = 0, '?', 'unknown'
    cur_start = start
    files, ended = {}, {}
    for line in proc.stdout:
        if line.startswith('[lab]'):
            print(line.rstrip(), flush=True)
        km = re.search(r'Linux version (\S+)', line)
        if km:
            kernel = km.group(1)
        m = re.search(r'bench: (.*)', line)
        if not m:
            continue
        msg = m.group(1)
        fm = re.match(r'file (\S+) (.*)', msg)
        if fm:
            files.setdefault(fm.group(1), []).append(fm.group(2))
            continue
        pm = re.match(r'plan (\d+)', msg)
        sm = re.match(r'step (\d+)/(\d+) (.*)', msg)
        bm = re.match(r'begin (\S+)', msg)
        em = re.match(r'end (\S+) status (\d+)', msg)
        now = time.time()
        if bm:
            cur, plan, cur_start = bm.group(1), 0, now
            prog['started'] += 1
            print('[bench] %s: started (experiment %d of %d, %d s into the '
                  'run%s)' % (cur, prog['started'], prog['total'], now - t0,
                              run_eta(prog, now, t0)), flush=True)
        elif em:
            ended[em.group(1)] = em.group(2)
            m = minutes.get(em.group(1))
            if m is not None:
                prog['done_min'] += m
                prog['left_min'] -= m
            print('[bench] %s: finished in %d s (status %s)'
                  % (em.group(1), now - cur_start, em.group(2)), flush=True)
        elif pm:
            plan = int(pm.group(1))
        elif sm:
            done = int(sm.group(1)) - 1
            el = now - cur_start
            eta = ''
            if done > 0 and plan:
                eta = ', about %d s left in it' % (el / done * (plan - done))
            print('[bench] %s [%s/%s, %d s, %d s total%s] %s'
                  % (cur, sm.group(1), sm.group(2), el, now - t0, eta,
                     sm.group(3)), flush=True)
        else:
            print('[bench] %s: %s' % (cur, msg), flush=True)
    rc = proc.wait()
    console_files(guest, files, ended)
    res = []
    for e, part in items:
        # the guest's files: NAME.rows, or NAME.PART.rows for a part
        stem = os.path.join(guest, part_id(e, part).replace(':', '.'))
        rows = []
        p = stem + '.rows'
        if os.path.exists(p):
            with open(p) as fh:
                rows = parse_rows(fh.read())
        st = None
        sp = stem + '.status'
        if os.path.exists(sp):
            with open(sp) as fh:
                st = fh.read().strip()
        ctx = {}
        cp = stem + '.ctx'
        if os.path.exists(cp):
            with open(cp) as fh:
                for line in fh:
                    if '=' in line:
                        k, v = line.rstrip('\n').split('=', 1)
                        ctx[k] = v
        if kname:
            for r in rows:
                if 'config' in r:
                    r['config'] = dict({'kernel': kname}, **r['config'])
        res.append((e, part, rows, st, ctx))
    return rc, kernel, res
