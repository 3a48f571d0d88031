#!/usr/bin/env python3
"""Keeps rewrite/testdata/cpython_{rejects,accepts}.txt honest: every snippet
gpuopt must report as a syntax error is rejected by this CPython
(python3 -m py_compile), and every look-alike it must not report compiles."""
import os
import py_compile
import sys
import tempfile

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rewrite", "testdata")


def snippets(name):
    text = open(os.path.join(here, name), encoding="utf-8").read()
    for section in text.split("### ")[1:]:
        title, _, body = section.partition("\n")
        yield title, body


def compiles(body):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "snippet.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        try:
            py_compile.compile(path, cfile=os.path.join(d, "snippet.pyc"), doraise=True)
            return True
        except py_compile.PyCompileError:
            return False


bad = 0
counts = {}
for name, want in (("cpython_rejects.txt", False), ("cpython_accepts.txt", True)):
    counts[name] = 0
    for title, body in snippets(name):
        counts[name] += 1
        if compiles(body) != want:
            bad += 1
            print(f"{name}: {title!r}: CPython {'rejects' if want else 'accepts'} it", file=sys.stderr)
print(f"{sys.version.split()[0]}: {counts} snippets checked, {bad} wrong")
sys.exit(1 if bad else 0)
