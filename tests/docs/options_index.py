#!/usr/bin/env python3
"""docs/options.md's index of options, generated from the man pages: every `-option` that a man page of
src/ lists under "Options Database Key(s):", with its argument and the pages that list it. The man pages
are the one description of each option; the index only points at them.

Usage: options_index.py <repo root> [--write]   (no flag: fail when docs/options.md's index is stale)
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith('--') else '.'
BEGIN = '<!-- the index below is generated from the man pages by tests/docs/options_index.py --write -->'
END = '<!-- end of the generated index -->'
GROUPS = [('-ksp_pipe_', 'Solvers (under the KSP\'s prefix)'), ('-pc_asddic_', 'Preconditioner asddic (under the PC\'s prefix)'),
          ('-pipeksp_', 'Hybrid MPI+OpenMP and the SpMV (process-wide; the chunk under the matrix\'s prefix)'),
          ('-cube_', 'Cube generator'), ('-', 'Other')]

page = re.compile(r'/\*(?:@C?|MC|E|S|J)\s*\n\s*(\w+)\s+-\s.*?(?:[@MESJ]\*/)', re.S)
keys = re.compile(r'^\s*Options Database Keys?:\s*\n((?:[ \t]*[+.\-][ \t]*-\w.*\n|[ \t]+\S.*\n)*)', re.M)
entry = re.compile(r'^\s*[+.\-]\s*(-\w+)(?:[ \t]+(<[^>]*>|\w+))?[ \t]+-\s', re.M)

options = {}
for d, _, files in sorted(os.walk(os.path.join(root, 'src'))):
    for f in sorted(files):
        if not f.endswith('.c'):
            continue
        text = open(os.path.join(d, f)).read()
        for m in page.finditer(text):
            name = m.group(1)
            for k in keys.finditer(m.group(0)):
                for e in entry.finditer(k.group(1)):
                    opt, arg = e.group(1), e.group(2) or ''
                    o = options.setdefault(opt, {'arg': arg, 'pages': []})
                    if not o['arg'] and arg:
                        o['arg'] = arg
                    ref = '`%s`' % name if name.isupper() else '`%s()`' % name  # a type's page, or a function's
                    if ref not in o['pages']:
                        o['pages'].append(ref)

lines = [BEGIN, '']
done = set()
for prefix, title in GROUPS:
    opts = sorted(o for o in options if o.startswith(prefix) and o not in done)
    if not opts:
        continue
    lines += ['### ' + title, '', '| option | man pages |', '|---|---|']
    for o in opts:
        done.add(o)
        arg = options[o]['arg'].replace('|', '\\|')
        lines.append('| `%s%s` | %s |' % (o, ' ' + arg if arg else '', ', '.join(options[o]['pages'])))
    lines.append('')
lines.append(END)
index = '\n'.join(lines) + '\n'

path = os.path.join(root, 'docs', 'options.md')
doc = open(path).read()
i, j = doc.find(BEGIN), doc.find(END)
if i < 0 or j < 0:
    sys.exit('docs/options.md: no generated index (markers missing): run tests/docs/options_index.py . --write')
new = doc[:i] + index + doc[j + len(END) + 1:]
if '--write' in sys.argv:
    open(path, 'w').write(new)
    print('docs/options.md: index of %d options written' % len(options))
elif new != doc:
    sys.exit('docs/options.md: the index of options is stale against the man pages: run tests/docs/options_index.py . --write')
else:
    print('options index in step: %d options' % len(options))
