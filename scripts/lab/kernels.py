# SPDX-License-Identifier: GPL-2.0
"""Kernel configurations to compare (KERNELS=a,b): the table of
experiments/kernels, series-N for the first N patches of patches/series,
and the environment that boots each (building a series-N on demand)."""

import os
import re
import subprocess

from labpaths import LAB, TOP

KERNELS_FILE = os.path.join(LAB, 'experiments', 'kernels')


def read_kernels(path=KERNELS_FILE):
    """The tracked kernel configurations: name -> {variant, build, desc}."""
    out = {}
    with open(path) as fh:
        for line in fh:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            f = line.split(None, 3)
            if len(f) < 3:
                raise ValueError('%s: bad line %r' % (path, line))
            out[f[0]] = {'variant': f[1], 'build': f[2],
                         'desc': f[3] if len(f) > 3 else ''}
    return out


def wanted_kernels(env):
    """The KERNELS list ("make bench KERNELS=a,b" passes BENCH_KERNELS),
    or None."""
    v = env.get('BENCH_KERNELS') or ''
    if not v.strip():
        return None
    return [k for k in re.split(r'[,\s]+', v) if k]


def kernel_entry(name, table):
    """A configuration of the file, or series-N: the first N patches."""
    if name in table:
        return table[name]
    m = re.match(r'^series-(\d+)$', name)
    if m:
        return {'variant': 'default', 'build': 'series:' + m.group(1),
                'desc': 'pristine 6.12 + the first %s patches of '
                        'patches/series' % m.group(1)}
    return None


def kernel_env(name, table, env, build_missing=False, log=None):
    """(env overrides, problem) to boot kernel configuration `name`.

    With build_missing set, a configuration whose build column is
    series:N is built by experiments/build-prefix.sh into build-<name>,
    and one of another variant than the KERNEL that "make bench" built
    (bare, debug) by build.sh; both rebuild only what changed.
    """
    k = kernel_entry(name, table)
    if k is None:
        return None, ('unknown kernel configuration %s (known: %s, '
                      'series-N)' % (name, ', '.join(sorted(table))))
    build = k['build']
    prefix = None
    if build.startswith('series:'):
        prefix = build.split(':', 1)[1]
        build = 'build-' + name
    elif build == '$BUILD':
        build = env.get('BUILD') or os.path.join(TOP, 'build')
    if not os.path.isabs(build):
        build = os.path.join(TOP, build)
    img = os.path.join(build, 'obj', k['variant'], 'arch', 'x86', 'boot',
                       'bzImage')
    if prefix is not None and build_missing:
        if log:
            log('[bench] kernel configuration %s: building the first %s '
                'patches into %s' % (name, prefix, build))
        rc = subprocess.run([os.path.join(LAB, 'experiments',
                                          'build-prefix.sh'), prefix, build,
                             k['variant']], cwd=TOP).returncode
        if rc != 0:
            return None, ('kernel configuration %s: the build of the first '
                          '%s patches failed (status %d)'
                          % (name, prefix, rc))
    if (prefix is None and build_missing and
            k['variant'] != (env.get('KERNEL') or 'default')):
        if log:
            log('[bench] kernel configuration %s: building KERNEL=%s into %s'
                % (name, k['variant'], build))
        rc = subprocess.run([os.path.join(LAB, 'build.sh')], cwd=TOP,
                            env=dict(os.environ, BUILD=build,
                                     KERNEL=k['variant'])).returncode
        if rc != 0:
            return None, ('kernel configuration %s: the build of KERNEL=%s '
                          'failed (status %d)' % (name, k['variant'], rc))
    if not os.path.exists(img):
        how = ('experiments/build-prefix.sh %s %s' % (prefix, build)
               if prefix is not None else
               'BUILD=%s KERNEL=%s scripts/lab/build.sh' % (build,
                                                            k['variant']))
        return None, ('kernel configuration %s is not built (%s missing: '
                      '%s; %s)' % (name, img, how, k['desc']))
    return {'BUILD': build, 'KERNEL': k['variant']}, None


def built_tree(envx, env):
    """The git tree id of the kernel source a boot with env overrides envx
    boots (build.sh writes it beside the objects), or None when the build
    does not record one."""
    build = envx.get('BUILD') or env.get('BUILD') or os.path.join(TOP,
                                                                   'build')
    variant = envx.get('KERNEL') or env.get('KERNEL') or 'default'
    try:
        with open(os.path.join(build, 'obj', variant, '.blk26-tree')) as fh:
            return fh.read().strip() or None
    except OSError:
        return None
