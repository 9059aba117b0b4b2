#!/usr/bin/env python3
"""What a kernel's machine code is made of: the SASS instructions (the GPU's own instruction set,
below PTX) of one or more kernels of a program, counted by opcode and set side by side.

usage: sass_ops.py PROGRAM [PATTERN ...]
  no PATTERN: lists the program's kernels (their C++ names), one a line
  each PATTERN: a piece of one kernel's C++ name (e.g. "transpose_tile<32, 8"); the kernels go in
  columns A, B, ... in the order given, named in a legend below the table
The disassembly comes from `cuobjdump -sass PROGRAM` (CUOBJDUMP names another cuobjdump); names are
demangled by c++filt when it is there.  Where the program holds code for several GPUs (a build
without a GPU), the newest architecture's is counted.  NOPs (padding after the last instruction)
are left out.  An opcode is counted without its modifiers (IMAD.MOV.U32 counts as IMAD).
These are static counts, instructions in the code: a loop's body counts once, however many times it
runs (ncu's inst/warp counts what ran).
Exit 2: a pattern matching no kernel or several (the matches are listed); exit 3: no cuobjdump."""
import os
import re
import shutil
import subprocess
import sys

ARCH = re.compile(r"^\s*arch = sm_(\d+)")
FUNCTION = re.compile(r"^\s*Function : (\S+)")
# "        /*0040*/                   @!P0 IMAD.MOV.U32 R5, RZ, RZ, R2 ;   /* 0x... */"
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)")


def parse(text):
    """{arch: {mangled kernel name: {opcode: count}}} from cuobjdump -sass output."""
    arches, arch, kernel = {}, 0, None
    for line in text.splitlines():
        m = ARCH.match(line)
        if m:
            arch, kernel = int(m.group(1)), None
            arches.setdefault(arch, {})
            continue
        m = FUNCTION.match(line)
        if m:
            kernel = m.group(1)
            arches.setdefault(arch, {})[kernel] = {}
            continue
        m = INSTRUCTION.match(line)
        if m and kernel is not None and m.group(1) != "NOP":
            ops = arches[arch][kernel]
            ops[m.group(1)] = ops.get(m.group(1), 0) + 1
    return arches


def demangle(names):
    """{mangled: readable}; the names as they are where c++filt is missing."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True).stdout
    lines = out.splitlines()
    return {n: (lines[i] if i < len(lines) and lines[i] else n) for i, n in enumerate(names)}


def table(kernels, names):
    """The opcode table: a row per opcode (most frequent in the first kernel first), a column per
    kernel, a total row, then the legend."""
    labels = [chr(ord("A") + i) for i in range(len(kernels))]
    ops = sorted({op for k in kernels for op in k},
                 key=lambda op: (-kernels[0].get(op, 0), -sum(k.get(op, 0) for k in kernels), op))
    lines = ["opcode    " + "".join("%8s" % l for l in labels)]
    for op in ops:
        lines.append("%-10s" % op + "".join("%8d" % k.get(op, 0) for k in kernels))
    lines.append("%-10s" % "total" + "".join("%8d" % sum(k.values()) for k in kernels))
    lines += ["  %s: %s" % (l, n) for l, n in zip(labels, names)]
    return lines


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    program, patterns = argv[1], argv[2:]
    tool = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
    if not tool:
        print("sass_ops: cuobjdump, the CUDA toolkit's disassembler, is not on PATH: install the full "
              "toolkit, or name it with CUOBJDUMP=/path/to/cuobjdump.", file=sys.stderr)
        return 3
    run = subprocess.run([tool, "-sass", program], capture_output=True, text=True)
    if run.returncode != 0:
        print("sass_ops: %s -sass %s failed: %s" % (tool, program, run.stderr.strip()), file=sys.stderr)
        return 1
    arches = {a: k for a, k in parse(run.stdout).items() if k}
    if not arches:
        print("sass_ops: no kernel code (SASS) in %s" % program, file=sys.stderr)
        return 1
    arch = max(arches)
    code = arches[arch]
    readable = demangle(list(code))
    if not patterns:
        print("Kernels in %s (sm_%d):" % (program, arch))
        for name in sorted(readable.values()):
            print("  " + name)
        return 0
    chosen = []
    for p in patterns:
        hits = [m for m in code if p in readable[m]]
        if len(hits) != 1:
            print("sass_ops: %r matches %s kernel%s of %s%s" % (
                p, len(hits) or "no", "" if len(hits) == 1 else "s", program,
                "".join("\n  " + readable[m] for m in sorted(hits, key=readable.get))), file=sys.stderr)
            return 2
        chosen.append(hits[0])
    print("SASS instructions by opcode (cuobjdump -sass %s, sm_%d; static counts, NOPs left out):"
          % (program, arch))
    for line in table([code[m] for m in chosen], [readable[m] for m in chosen]):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
