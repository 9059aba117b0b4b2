#!/usr/bin/env bash
# Every public name of common/ (the functions, types, enum constants and macros its headers declare) is listed in
# common/README.md, and no header of common/ includes a lesson's file.  One PASS/FAIL line each.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python3 - "$COMMON" <<'PY'
import glob, os, re, sys
common = sys.argv[1]
readme = open(os.path.join(common, "README.md")).read()
names = set()
for h in sorted(glob.glob(os.path.join(common, "*.h")) + glob.glob(os.path.join(common, "*.cuh"))):
    text = re.sub(r"/\*.*?\*/", "", open(h).read(), flags=re.S)
    for m in re.finditer(r"^#define\s+([A-Z][A-Z0-9_]+)", text, re.M):
        if not m.group(1).endswith(("_H", "_CUH")):
            names.add(m.group(1))
    for m in re.finditer(r"}\s*([A-Za-z_]\w*)\s*;", text):
        names.add(m.group(1))
    for m in re.finditer(r"typedef\s+[^;{]*?\(\s*\*\s*(\w+)\s*\)", text):
        names.add(m.group(1))
    # the constants of an enum and a typedef of another type name are public names too
    for m in re.finditer(r"\benum\b[^{;]*\{([^}]*)\}", text):
        for item in m.group(1).split(","):
            n = item.split("=")[0].strip()
            if re.match(r"^[A-Za-z_]\w*$", n):
                names.add(n)
    for m in re.finditer(r"^\s*typedef\s+(?!struct|enum|union)[^;(]*?\b(\w+)\s*;", text, re.M):
        names.add(m.group(1))
    for m in re.finditer(r"^(?:static\s+inline\s+|extern\s+)?[A-Za-z_][\w\s\*]*?\b([a-z_]\w*)\s*\(", text, re.M):
        if m.group(1) not in ("if", "for", "while", "return", "sizeof", "defined", "void"):
            names.add(m.group(1))
missing = sorted(n for n in names if not re.search(r"\b%s\b" % re.escape(n), readme))
print(("FAIL" if missing else "PASS") + " common: every public name of its headers is in common/README.md (%d names)%s"
      % (len(names), ": missing " + ", ".join(missing) if missing else ""))
lessons = [h for h in glob.glob(os.path.join(common, "*.h")) + glob.glob(os.path.join(common, "*.cuh"))
           + glob.glob(os.path.join(common, "*.c")) + glob.glob(os.path.join(common, "*.cu"))
           if re.search(r'#include\s+"\.\./[0-9][0-9]_', open(h).read())]
print(("FAIL" if lessons else "PASS") + " common: includes no lesson's file%s" % (": " + ", ".join(lessons) if lessons else ""))
PY
