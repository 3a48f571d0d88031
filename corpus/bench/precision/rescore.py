"""Re-score a blind sample's judged findings against another build.

    python3 corpus/bench/precision/rescore.py .notes/blind-ff.md /tmp/blind-ff ./gpuopt

Reads the note's "## Repositories" table (repo @ commit) and its findings
tables (| # | path:line CODE | label | true/false | reason |), runs
`gpuopt check --target-gpu h100` in each clone (CLONES/owner+name), and
prints how many judged-true and judged-false findings the build still
reports, which judged ones it dropped, and the findings nobody judged.
Not blind once the build was changed from the sample's findings: it says
what those changes did to the sample, not how the build does on new code.
Rows whose path:line CODE cell the regex cannot read are skipped (the count
of rows parsed is printed to stderr)."""
import re, subprocess, sys, os
note, root, binary = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(note).read()
repos = re.findall(r'^\| (\d+) \| ([\w.-]+/[\w.-]+) @ ([0-9a-f]+) \| (.*?) \|$', text, re.M)
# findings sections: "### N name" followed by table rows
sections = re.split(r'^### ', text.split('## Findings',1)[1] if '## Findings' in text else text, flags=re.M)
judged = {}  # (repo_idx, path, line, code) -> true/false
for sec in sections[1:]:
    m = re.match(r'(\d+)', sec)
    if not m: continue
    idx = m.group(1)
    for row in re.findall(r'^\| *\d+[^|]* \| ([^|]+?) \| [^|]* \| \**(true|false)\** \|', sec, re.M):
        loc, verdict = row
        mm = re.match(r'`?([\w./ -]+?\.(?:py|ipynb))(?: cell \d+)?:(\d+)(?::\d+)? `?([A-Z]+\d+)', loc.strip())
        if mm:
            judged[(idx, mm.group(1), int(mm.group(2)), mm.group(3))] = verdict
print(len(judged), "judged rows parsed", file=sys.stderr)
still_t = still_f = gone_t = gone_f = new = 0
gone_list, new_list = [], []
for idx, repo, commit, scope in repos:
    d = os.path.join(root, repo.replace('/', '+'))
    if not os.path.isdir(d): continue
    out = subprocess.run([binary, 'check', '--target-gpu', 'h100', '--output-format', 'concise', '.'], cwd=d, capture_output=True, text=True).stdout
    found = set()
    for line in out.splitlines():
        mm = re.match(r'(.+?):(\d+):\d+: ([A-Z]+\d+) ', line)
        if mm: found.add((mm.group(1), int(mm.group(2)), mm.group(3)))
    for (i, path, ln, code), v in judged.items():
        if i != idx: continue
        hit = any(f[2] == code and f[1] == ln and (f[0].endswith(path) or path.endswith(f[0])) for f in found)
        if hit:
            if v == 'true': still_t += 1
            else: still_f += 1
        else:
            if v == 'true': gone_t += 1
            else: gone_f += 1
            gone_list.append((repo, path, ln, code, v))
    scoped = [f for f in found if f[2] != 'E999']
    for f in scoped:
        if not any(k[0] == idx and k[3] == f[2] and k[2] == f[1] and (f[0].endswith(k[1]) or k[1].endswith(f[0])) for k in judged):
            new += 1; new_list.append((repo,) + f)
print(f"judged true still reported {still_t}, judged false still reported {still_f}, true dropped {gone_t}, false dropped {gone_f}, unjudged findings {new}")
for g in gone_list: print("dropped", *g)
for n in new_list[:40]: print("unjudged", *n)
