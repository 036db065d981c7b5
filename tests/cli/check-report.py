#!/usr/bin/env python3
"""check-report.py - checks of the report of data/antmill-report.sh.

  check-report.py DIR

Prints one line per check, "ok DESC" or "not ok DESC: detail":
  - index.html is well-formed: every element closed in order (void
    elements aside), one <html>, attributes quoted (python's html.parser);
  - every number in the page's text (outside <style> and the inline <svg>
    figures, whose coordinates are gnuplot's) is a field, or part of a
    field, of one of the TSV files of DIR;
  - every figure the page names (a.svg inline, a.gp, a.tsv links) exists
    and is not empty.
"""
import glob
import os
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.text, self.links = [], [], [], []
        self.skip = 0  # inside <style> or <svg>

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        self.stack.append((tag, self.getpos()))
        if tag in ("style", "svg"):
            self.skip += 1
        for k, v in attrs:
            if k == "href":
                self.links.append(v)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack:
            self.errors.append("</%s> at line %d closes nothing" % (tag, self.getpos()[0]))
            return
        top, pos = self.stack.pop()
        if top != tag:
            self.errors.append("</%s> at line %d closes <%s> of line %d"
                               % (tag, self.getpos()[0], top, pos[0]))
        if tag in ("style", "svg"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.text.append(data)


def check(desc, cond, detail=""):
    print(("ok " if cond else "not ok ") + desc + ("" if cond else ": " + detail))


def main():
    d = sys.argv[1]
    page = open(os.path.join(d, "index.html"), encoding="utf-8").read()
    c = Checker()
    c.feed(page)
    c.close()
    check("index.html: elements close in order", not c.errors, "; ".join(c.errors[:3]))
    check("index.html: nothing left open", not c.stack,
          ", ".join("<%s> line %d" % (t, p[0]) for t, p in c.stack[:3]))
    check("index.html: starts with a doctype", page.startswith("<!DOCTYPE html>"))
    tsv_text = ""
    for f in sorted(glob.glob(os.path.join(d, "*.tsv"))):
        tsv_text += open(f, encoding="utf-8").read() + "\n"
    fields = set(re.split(r"[\t\n]", tsv_text))
    text = " ".join(c.text)
    numbers = re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)
    missing = sorted({x for x in numbers if x not in tsv_text})
    check("page text: %d numbers, each in a TSV of the report" % len(numbers),
          len(numbers) > 0 and not missing, "not in any TSV: %s" % missing[:10])
    # Table cells are whole TSV fields.
    cells = re.findall(r"<td>(.*?)</td>", page)
    bad = [x for x in cells if x.replace("&lt;", "<").replace("&gt;", ">")
           .replace("&amp;", "&") not in fields]
    check("table cells: %d, each a whole TSV field" % len(cells), cells and not bad, str(bad[:5]))
    for link in c.links:
        p = os.path.join(d, link)
        check("%s exists and is not empty" % link, os.path.isfile(p) and os.path.getsize(p) > 0)
    nsvg = page.count("<svg")
    check("%d inline figures" % nsvg, nsvg == 3)
    for name in ("distance", "load", "sim"):
        p = os.path.join(d, name + ".svg")
        check("%s.svg exists and is not empty" % name, os.path.isfile(p) and os.path.getsize(p) > 0)


main()
