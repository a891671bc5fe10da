#!/usr/bin/env python3
"""Lists what breaks the shape rule of the developers' guide: files over 600 lines and functions
over 80 lines in core/, ui/, app/ and kernels/ (.cu files too), includes that cross a layer the
wrong way (core/ may include only core/, ui/ only core/ and ui/; includes name their layer from the
repository root), and threads started in ui/ or app/ any other way than ssh::SessionThread and background::run/start (no
std::thread, std::async, QThread::create, QtConcurrent or QThreadPool there), and QMessageBox::question in ui/
or app/ (ui::askDestructive answers Cancel by default). A brace-matching heuristic, not a parser: a function is a
'{' alone on its line outside any class or function body, after a declaration holding a ')';
it is counted from the declaration's first line to the closing '}'. Good enough for this code
base's clang-format style; bodies inside class definitions and lambdas are not counted.

Usage: packaging/check-shape.py [--max-file N] [--max-function N] [ROOT]
Exit status 1 when anything is over the limits, so CI can call it."""

import argparse
import pathlib
import sys

SOURCES = ("core", "ui", "app")
# gantry-verify has no layers and no GUI thread, so only the size rules apply to it.
SIZE_ONLY = ("kernels",)
SUFFIXES = {".cpp", ".h", ".cc", ".hpp", ".cu", ".cuh"}


def strip_comments_and_strings(line, in_block):
    """Removes // and /* */ comments and string/char literals so their braces do not count."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_block = False
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block = True
            i += 2
            continue
        if c in "\"'":
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), in_block


def signature_start(lines, brace):
    """The 1-based line where the declaration before the '{' on line brace+1 begins: walks back to
    a blank line, a comment, a preprocessor line or the end of the previous statement."""
    first = brace
    while first > 1:
        previous = lines[first - 2].strip()
        if not previous or previous.endswith((";", "}", "{")) or previous.startswith(("//", "#", "/*", "*")):
            break
        first -= 1
    return first


def opens_scope(stripped):
    """A line that opens a namespace or an extern "C" block (the literal already stripped): the
    functions inside count as top-level."""
    if stripped.startswith("namespace") and "{" in stripped:
        return True
    return stripped.startswith("extern") and stripped.endswith("{")


def functions(lines):
    """Yields (name, first line, length) for each top-level function body."""
    depth = 0
    in_block = False
    start = None
    name = ""
    namespace_depth = 0
    for number, raw in enumerate(lines, 1):
        code, in_block = strip_comments_and_strings(raw, in_block)
        stripped = code.strip()
        if depth == namespace_depth and opens_scope(stripped):
            namespace_depth += 1
            depth += code.count("{") - code.count("}")
            continue
        if start is None and depth == namespace_depth and stripped == "{" and number > 1:
            first = signature_start(lines, number - 1)
            signature = " ".join(line.strip() for line in lines[first - 1:number - 1])
            if ")" in signature:
                start = first
                name = signature
        depth += code.count("{") - code.count("}")
        if depth < namespace_depth:
            namespace_depth = depth
        if start is not None and depth == namespace_depth:
            yield name, start, number - start + 1
            start = None


LAYER_MAY_INCLUDE = {"core": ("core/",), "ui": ("core/", "ui/"), "app": ("core/", "ui/", "app/")}


def layer_violations(top, lines):
    """Yields (line number, included path) for a quoted include of a higher layer."""
    if top not in LAYER_MAY_INCLUDE:
        return
    allowed = LAYER_MAY_INCLUDE[top]
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped.startswith("#include \""):
            continue
        included = stripped.split('"')[1]
        if included.startswith(("core/", "ui/", "app/")) and not included.startswith(allowed):
            yield number, included


# ui/ and app/ start threads two ways only: ssh::SessionThread for SSH, core/util/background.h for
# the rest (cancellable, never joined on the GUI thread).
THREAD_PRIMITIVES = ("std::thread", "std::jthread", "std::async", "QThread::create", "QtConcurrent", "QThreadPool")


def code_hits(top, lines, needles):
    """Yields (line number, needle) for each needle in the code (not comments or strings) of a ui/ or app/ file."""
    if top not in ("ui", "app"):
        return
    in_block = False
    for number, raw in enumerate(lines, start=1):
        code, in_block = strip_comments_and_strings(raw, in_block)
        for needle in needles:
            if needle in code:
                yield number, needle


def thread_violations(top, lines):
    """Yields (line number, primitive) for a thread started in ui/ or app/ some other way."""
    return code_hits(top, lines, THREAD_PRIMITIVES)


# A question whose Yes cannot be undone defaults to Cancel: ui/ and app/ ask through
# ui::askDestructive (ui/common/confirm.h), never QMessageBox::question, whose default is Yes.
def question_violations(top, lines):
    """Yields line numbers of a QMessageBox::question in ui/ or app/."""
    return (number for number, _ in code_hits(top, lines, ("QMessageBox::question",)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-file", type=int, default=600)
    parser.add_argument("--max-function", type=int, default=80)
    parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent)
    options = parser.parse_args()
    root = pathlib.Path(options.root)
    over = 0
    for top in SOURCES + SIZE_ONLY:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
            relative = path.relative_to(root)
            if len(lines) > options.max_file:
                print(f"{relative}: {len(lines)} lines (file limit {options.max_file})")
                over += 1
            for number, included in layer_violations(top, lines):
                print(f"{relative}:{number}: includes {included} (a {top}/ file may include only "
                      f"{', '.join(LAYER_MAY_INCLUDE[top])})")
                over += 1
            for number, primitive in thread_violations(top, lines):
                print(f"{relative}:{number}: {primitive} in {top}/ (use ssh::SessionThread or background::run)")
                over += 1
            for number in question_violations(top, lines):
                print(f"{relative}:{number}: QMessageBox::question in {top}/ (ask with ui::askDestructive: Cancel by default)")
                over += 1
            for name, first, length in functions(lines):
                if length > options.max_function:
                    print(f"{relative}:{first}: {length} lines: {name[:100]}")
                    over += 1
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
