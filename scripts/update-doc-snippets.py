#!/usr/bin/env python3
"""Rewrites each ```cpp or ```cmake block in README.md and docs/*.md that follows `<!-- snippet: PATH#NAME -->`
with the lines between `//[NAME` and `//]` in PATH (`#[NAME` and `#]` in CMake files). tests/test_docs.cpp checks
that they agree."""
import pathlib, re

root = pathlib.Path(__file__).resolve().parent.parent
marker = re.compile(r'<!-- snippet: (\S+)#(\S+) -->')

def snippet(path, name):
    lines = (root / path).read_text().split('\n')
    start = next(i for i, l in enumerate(lines) if l.strip() in ('//[' + name, '#[' + name))
    stop = next(i for i in range(start + 1, len(lines)) if lines[i].strip() in ('//]', '#]'))
    body = lines[start + 1:stop]
    indent = min((len(l) - len(l.lstrip(' ')) for l in body if l.strip()), default=0)
    return [l[indent:] if l.strip() else '' for l in body]

for doc in [root / 'README.md'] + sorted((root / 'docs').glob('*.md')):
    lines = doc.read_text().split('\n')
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = marker.search(lines[i])
        if m and i + 1 < len(lines) and lines[i + 1].startswith(('```cpp', '```cmake')):
            end = next(j for j in range(i + 2, len(lines)) if lines[j] == '```')
            out += [lines[i + 1]] + snippet(m[1], m[2]) + ['```']
            i = end + 1
            continue
        i += 1
    doc.write_text('\n'.join(out))
