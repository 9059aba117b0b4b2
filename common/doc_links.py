#!/usr/bin/env python3
"""Every relative link in the course's Markdown pages must lead somewhere: the file exists, and a
'#anchor' names a heading of that file (GitHub's rule for heading anchors) or an explicit
<a id="..."> / <a name="...">. A page that moves or renames a section breaks the links into it from
other pages; this check finds them before a student does.

Usage: doc_links.py ROOT       prints one PASS or FAIL line per page; exit 1 if any link is broken.
"""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")           # [text](target)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
FENCE = re.compile(r"^\s*(```|~~~)")
SKIP_DIRS = {".git", "build", "results", "shared", ".gpu", "node_modules"}


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading)               # inline HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)                  # \w keeps letters, digits and _
    return text.replace(" ", "-")


def prose_lines(path):
    """(line number, line) of each line outside code fences: a '#' or '](' inside one is code."""
    fenced = False
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield i, line


def anchors_of(path):
    """The anchors a Markdown file defines: its headings (outside code fences) and HTML anchors."""
    found, seen = set(), {}
    for _, line in prose_lines(path):
        for a in HTML_ANCHOR.findall(line):
            found.add(a)
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else "%s-%d" % (base, n))
    return found


def links_of(path):
    """(line number, target) of each relative link outside code fences."""
    for i, line in prose_lines(path):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):          # http:, https:, mailto:
                continue
            yield i, target


def pages(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(d, f)


def broken_links(page, cache):
    for line, target in links_of(page):
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
        if not os.path.exists(dest):
            yield "%d: %s (no such file)" % (line, target)
            continue
        if anchor and dest.endswith(".md"):
            if dest not in cache:
                cache[dest] = anchors_of(dest)
            if anchor not in cache[dest]:
                yield "%d: %s (no heading or anchor '%s' in %s)" % (line, target, anchor,
                                                                    os.path.basename(dest))


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: doc_links.py ROOT (got: %s)" % " ".join(argv[1:]), file=sys.stderr)
        return 2
    root, cache, failed = argv[1], {}, 0
    for page in pages(root):
        bad = list(broken_links(page, cache))
        name = os.path.relpath(page, root)
        if bad:
            failed += 1
            print("FAIL links: %s: %s" % (name, "; ".join(bad)))
        else:
            print("PASS links: %s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
