#!/usr/bin/env python3
"""Fails when the top-level README.md stops being a map: over 150 lines; `make run`/`make test` or the tree
map (with src/mat/, where the SpMV lives) not within its first 40 lines; a registered KSP/PC type
(include/pipeksp.h's type-name macros) without its table row naming the man page, or that man page missing
from src/; a path it names under docs/, bench/, tests/, python/, tools/ or config/ that does not exist.
Usage: readme_check.py <repo root>
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
readme = open(os.path.join(root, 'README.md')).read()
lines = readme.splitlines()
bad = []

if len(lines) > 150:
    bad.append('README.md has %d lines (at most 150: details belong in docs/)' % len(lines))
top = '\n'.join(lines[:40])
for what in ('make run', 'make test', '`src/mat/`'):
    if what not in top:
        bad.append('%s is not in the first 40 lines of README.md' % what)

header = open(os.path.join(root, 'include', 'pipeksp.h')).read()
types = re.findall(r'^#define\s+((?:KSP|PC)[A-Z0-9]+)\s+"(\w+)"', header, re.M)
if len(types) < 5:
    bad.append('only %d type names found in include/pipeksp.h: the parser is wrong' % len(types))
pages = set()
for d, _, files in os.walk(os.path.join(root, 'src')):
    for f in files:
        if f.endswith('.c'):
            pages.update(re.findall(r'/\*MC\s*\n\s*(\w+)\s+-', open(os.path.join(d, f)).read()))
for macro, name in types:
    opt = '-ksp_type' if macro.startswith('KSP') else '-pc_type'
    if not re.search(r'^\|\s*`%s %s`\s*\|\s*`%s`\s*\|' % (opt, name, macro), readme, re.M):
        bad.append('README.md has no row "| `%s %s` | `%s` | ..."' % (opt, name, macro))
    if macro not in pages:
        bad.append('%s: no /*MC man page in src/' % macro)

for path in sorted(set(re.findall(r'`((?:docs|bench|tests|python|tools|config)/[\w./-]*)`', readme))):
    if '<' not in path and not os.path.exists(os.path.join(root, path)):
        bad.append('README.md names %s, which does not exist' % path)

for b in bad:
    print(b)
print('README.md: %d lines, %d types, %d problems' % (len(lines), len(types), len(bad)))
sys.exit(1 if bad else 0)
