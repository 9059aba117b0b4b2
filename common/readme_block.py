#!/usr/bin/env python3
"""Replaces what stands between '<!-- NAME:begin -->' and '<!-- NAME:end -->' in a Markdown file
with the contents of another file.  Used by `make results` to refresh the measured output in the
lessons' READMEs.  usage: readme_block.py README.md NAME CONTENT_FILE"""
import sys


def main(readme, name, content_file):
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    text = open(readme).read()
    if begin not in text or end not in text:
        print("%s has no %s ... %s markers: left alone" % (readme, begin, end))
        return 0
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = open(content_file).read().rstrip("\n")
    open(readme, "w").write(head + begin + "\n" + body + "\n" + end + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
