#!/usr/bin/env python3
# Kept from session 35: python3 .notes/tools/judged.py OLD_BINARY NEW_BINARY .notes/blind-s35*.md
# (the repositories must be cloned under /tmp/blind-<ID>/owner+name, as the blind helpers leave them).
"""judged.py OLD NEW NOTES... : re-run two gpuopt binaries over the repositories of
blind notes (cloned under /tmp/blind-<ID>/owner+name) and compare with the judged findings."""
import re, subprocess, sys, os
old, new, notes = sys.argv[1], sys.argv[2], sys.argv[3:]
row = re.compile(r'^\|\s*\d+\s*\|\s*`?([^|`]+?:\d+)\s+([A-Z]+[0-9]{3})`?\s*\|[^|]*\|\s*\**(true|false)\b', re.I)
def run(binary, d, scope):
    out = subprocess.run([binary, 'check', '--target-gpu', 'h100', '--output-format', 'concise'] + scope, cwd=d, capture_output=True, text=True).stdout
    got = set()
    for l in out.splitlines():
        m = re.match(r'^(\S+?):(\d+):\d+: ([A-Z]+[0-9]{3})', l)
        if m: got.add((m.group(1) + ':' + m.group(2), m.group(3)))
    return got
tot = dict(tk=0, tl=0, fk=0, fg=0, new=0, gone_unjudged=0)
for note in notes:
    text = open(note).read()
    m = re.search(r'Blind review (S\d+[A-Z]+)', text)
    if not m: continue
    sid = m.group(1)
    repos = {}
    for r in re.finditer(r'^\|\s*(\d+)\s*\|\s*([\w.-]+/[\w.-]+)\s*@\s*([0-9a-f]{7,40})\s*\|\s*([^|]*)\|', text, re.M):
        sc = r.group(4)
        sc = re.sub(r'(\S*)\{([^}]*)\}', lambda mm: ' '.join(mm.group(1) + x for x in mm.group(2).split()), sc)
        repos[r.group(1)] = (r.group(2), [x.strip('`') for x in sc.split()])
    fsec = text.split('## Findings', 1)[1] if '## Findings' in text else ''
    fsec = re.split(r'\n## (?!#)', fsec)[0]
    judged = {}
    cur = None
    for line in fsec.splitlines():
        h = re.match(r'^###\s+(\d+)\b', line)
        if h: cur = h.group(1); continue
        rm = row.match(line)
        if rm and cur:
            judged.setdefault(cur, {})[(rm.group(1).strip(), rm.group(2))] = rm.group(3).lower()
    for idx, (name, scope) in repos.items():
        d = '/tmp/blind-%s/%s' % (sid, name.replace('/', '+'))
        if not os.path.isdir(d): print('missing', d); continue
        o, n = run(old, d, scope), run(new, d, scope)
        js = judged.get(idx, {})
        for k, v in js.items():
            inold, innew = k in o, k in n
            if v == 'true':
                if innew: tot['tk'] += 1
                elif inold: tot['tl'] += 1; print('TRUE LOST', sid, name, k)
            else:
                if innew: tot['fk'] += 1; os.environ.get('LISTFALSE') and print('false kept', sid, name, k)
                elif inold: tot['fg'] += 1; print('false gone', sid, name, k)
        for k in sorted(n - o):
            tot['new'] += 1; print('NEW', sid, name, k, 'judged=' + js.get(k, '-'))
        for k in sorted(o - n):
            if k not in js: tot['gone_unjudged'] += 1; print('gone (unjudged)', sid, name, k)
print(tot)
