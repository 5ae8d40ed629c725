#!/usr/bin/env python3
"""The version is written once, in include/pipeksp.h; CMake reads it from there. The Python package
cannot read a C header once installed, so this test fails when its two copies (pyproject.toml,
pipeksp/__init__.py) differ from the header. Usage: version_check.py <repo root> <CMake's version>"""
import re
import sys

root, cmake = sys.argv[1], sys.argv[2]
h = open(root + '/include/pipeksp.h').read()
parts = [re.search(r'^#define PIPEKSP_VERSION_%s\s+(\d+)' % p, h, re.M).group(1) for p in ('MAJOR', 'MINOR', 'SUBMINOR')]
header = '.'.join(parts)
found = {
    'include/pipeksp.h': header,
    'CMakeLists.txt (PROJECT_VERSION)': cmake,
    'python/pyproject.toml': re.search(r'^version\s*=\s*"([^"]+)"', open(root + '/python/pyproject.toml').read(), re.M).group(1),
    'python/pipeksp/__init__.py': re.search(r'^__version__\s*=\s*"([^"]+)"', open(root + '/python/pipeksp/__init__.py').read(), re.M).group(1),
}
for k, v in found.items():
    print('%-36s %s' % (k, v))
bad = [k for k, v in found.items() if v != header]
print('version mismatch in: ' + ', '.join(bad) if bad else 'versions agree')
sys.exit(1 if bad else 0)
