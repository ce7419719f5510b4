#!/usr/bin/env python3
"""Counts what issue 38 bounds: Swift files over 400 lines and functions over 80.

Usage: python3 scripts/size-check.py [--max-file 400] [--max-func 80] [paths...]
Exits 1 and lists the offenders when any bound is broken. A function's length is counted
from the line of its `func`/`init`/`subscript`/`deinit` keyword to its closing brace.
"""
import argparse
import os
import re
import sys

DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|open|static|class|final|"
                  r"override|mutating|nonmutating|convenience|required|nonisolated|@inlinable|@usableFromInline)\s+)*"
                  r"(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\b)")


# A member that is not a function: it ends a bodiless declaration before it.
MEMBER = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|private|fileprivate|internal|open|static|class|final|override|"
                    r"nonisolated|weak|unowned|lazy)\s+)*(?:var|let|case|associatedtype|typealias|struct|enum|class|"
                    r"protocol|extension)\b")


def strip(line, state):
    """Removes comments and string contents from one line; state carries block comments and multi-line strings."""
    out = []
    i = 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"] = False
            i = end + 2
            continue
        if state["multi"]:
            end = line.find('"""', i)
            if end < 0:
                return "".join(out)
            state["multi"] = False
            i = end + 3
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        if line.startswith('"""', i):
            state["multi"] = True
            i += 3
            continue
        c = line[i]
        if c == '"':
            j = i + 1
            depth = 0
            while j < len(line):
                if line[j] == "\\" and j + 1 < len(line) and line[j + 1] == "(":
                    depth += 1
                    j += 2
                    continue
                if depth and line[j] == ")":
                    depth -= 1
                elif line[j] == "\\":
                    j += 1
                elif line[j] == '"' and depth == 0:
                    break
                j += 1
            out.append('""')
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(path):
    state = {"block": False, "multi": False}
    lines = open(path, encoding="utf-8").read().split("\n")
    stack = []  # (name, start line, brace depth at which it opened)
    depth = 0
    pending = None
    found = []
    for number, raw in enumerate(lines, 1):
        code = strip(raw, state)
        match = DECL.match(code)
        if pending is not None and (match or MEMBER.match(code)):
            # The pending declaration had no body (a protocol requirement): this line is
            # the next member.
            pending = None
        if match:
            pending = (match.group(1).replace("func ", "").strip(" (<"), number)
        for c in code:
            if c == "{":
                depth += 1
                if pending is not None:
                    stack.append((pending[0], pending[1], depth))
                    pending = None
            elif c == "}":
                if stack and stack[-1][2] == depth:
                    name, start, _ = stack.pop()
                    found.append((name, start, number - start + 1))
                # A pending declaration cannot own a body past its enclosing scope's end.
                pending = None
                depth -= 1
    return len(lines) - (1 if lines and lines[-1] == "" else 0), found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-file", type=int, default=400)
    parser.add_argument("--max-func", type=int, default=80)
    parser.add_argument("paths", nargs="*", default=["Sources"])
    args = parser.parse_args()
    bad = 0
    for root in args.paths:
        walk = [(root, [], [os.path.basename(root)])] if root.endswith(".swift") else os.walk(root)
        for folder, _, files in walk:
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = folder if folder.endswith(".swift") else os.path.join(folder, name)
                count, funcs = functions(path)
                if count > args.max_file:
                    print(f"{path}: {count} lines (file bound {args.max_file})")
                    bad += 1
                for fname, start, length in funcs:
                    if length > args.max_func:
                        print(f"{path}:{start}: {fname} is {length} lines (function bound {args.max_func})")
                        bad += 1
    print(f"{bad} over the bounds", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
