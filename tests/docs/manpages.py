#!/usr/bin/env python3
"""Fails when a public symbol of include/pipeksp.h has no man page in src/ (or, for enums and structs,
in include/, where PETSc puts its /*E and /*S pages).

Public symbols: PETSC_EXTERN functions and arrays, typedef'd enums and structs, and the type-name
macros (KSP/PC type strings). A man page is a PETSc comment block (/*@, /*@C, /*MC, /*E, /*S, /*J)
whose first line names the symbol ("Name - what it does"); function pages must also carry Level:
and .seealso:, as PETSc's doctext requires. Usage: manpages.py <repo root>
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
header = open(os.path.join(root, 'include', 'pipeksp.h')).read()
code = re.sub(r'/\*.*?\*/', '', header, flags=re.S)  # symbols named only in comments do not count

public = set()
public.update(re.findall(r'PETSC_EXTERN\s+[^;(]*?\b(\w+)\s*\(', code))               # functions
public.update(re.findall(r'PETSC_EXTERN\s+const\s+char\s*\*\s*const\s+(\w+)\s*\[', code))  # enum names
public.update(re.findall(r'typedef\s+enum\s*\{[^}]*\}\s*(\w+)\s*;', code))           # enums
public.update(re.findall(r'typedef\s+struct\s*\{[^}]*\}\s*(\w+)\s*;', code))         # structs
public.update(re.findall(r'typedef\s+struct\s+\w+\s*\*\s*(\w+)\s*;', code))          # handles
public.update(re.findall(r'^#define\s+((?:KSP|PC|MAT)[A-Z0-9]+)\s+"', code, re.M))  # type names

pages = {}
opener = re.compile(r'/\*(@C?|MC|E|S|J)\s*\n\s*(\w+)\s+-\s(.*?)(?:[@MESJ]\*/)', re.S)
for d, _, files in [w for top in ('src', 'include') for w in os.walk(os.path.join(root, top))]:
    for f in files:
        if f.endswith(('.c', '.h')):
            text = open(os.path.join(d, f)).read()
            for m in opener.finditer(text):
                pages.setdefault(m.group(2), []).append((m.group(1), m.group(3), os.path.join(d, f)))

bad = []
for s in sorted(public):
    if s not in pages and s.endswith('Types') and s[:-1] in pages:
        continue  # the names array of an enum is documented with the enum, as PETSc does
    if s not in pages:
        bad.append('%s: no man page in src/ or include/' % s)
        continue
    kind, body, where = pages[s][0]
    if 'Level:' not in body:
        bad.append('%s (%s): man page has no Level:' % (s, where))
    if kind.startswith('@') and '.seealso:' not in body:
        bad.append('%s (%s): man page has no .seealso:' % (s, where))
for b in bad:
    print(b)
print('%d public symbols in include/pipeksp.h, %d without a complete man page' % (len(public), len(bad)))
if len(public) < 40:  # the parser itself broke: do not pass on an empty list
    print('too few public symbols found: the header parser is wrong')
    sys.exit(1)
sys.exit(1 if bad else 0)
