#!/usr/bin/env python3
"""Replaces what stands between '<!-- NAME:begin -->' and '<!-- NAME:end -->' in a Markdown file
with the contents of another file.  Used by `make results` to refresh the measured output in the
lessons' READMEs.  usage: readme_block.py README.md NAME CONTENT_FILE"""
import sys


def markers(name):
    return "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name


def block_text(text, name):
    """What stands between the NAME markers of text, or None if it has no such block."""
    begin, end = markers(name)
    if begin not in text or end not in text:
        return None
    return text.split(begin, 1)[1].split(end, 1)[0]


def replace_block(text, name, body):
    """text with the NAME block's contents replaced by body, or None if it has no such block."""
    begin, end = markers(name)
    if block_text(text, name) is None:
        return None
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body.rstrip("\n") + "\n" + end + tail


def main(readme, name, content_file):
    text = replace_block(open(readme).read(), name, open(content_file).read())
    if text is None:
        print("%s has no %s ... %s markers: left alone" % ((readme,) + markers(name)))
        return 0
    open(readme, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
