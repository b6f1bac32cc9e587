#!/usr/bin/env python3
"""Functions say what they do in a screenful: no function (or lambda at namespace or class scope) in
the given C++ files is longer than LIMIT lines, counted from the line that opens its body to the
line that closes it. A brace-counting reading, not a parser: strings, chars and comments are blanked
first. GLSL reads the same way. Usage: function_length.py LIMIT [--tables=NAME,...] FILE... ; exit 1
listing each function over the limit (data tables named in --tables excepted)."""
import re
import sys

SCOPES = re.compile(r"^\s*((template\s*<.*>\s*)?(namespace|struct|class|enum|union)\b|extern\s+\"C\")")


def blank(text):
    """Comments, strings and character literals replaced by spaces, newlines kept."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def long_functions(path, limit):
    code = blank(open(path, encoding="utf-8", errors="replace").read())
    stack = []  # for each open brace: "scope" (namespace/class/...), "function" or "inner"
    header = ""  # the text since the last ; { or } at scope level: what a brace opens
    found = []
    line = 1
    for ch in code:
        if ch == "\n":
            line += 1
        if ch == "{":
            at_scope = all(kind == "scope" for kind, _, _ in stack)
            if not at_scope:
                kind = "inner"
            elif SCOPES.search(header.strip()) or header.strip().endswith("="):
                kind = "scope" if not header.strip().endswith("=") else "inner"
            elif ")" in header:
                kind = "function"
            else:
                kind = "scope"
            stack.append((kind, line, header.strip()))
            header = ""
        elif ch == "}":
            if stack:
                kind, start, text = stack.pop()
                if kind == "function" and line - start + 1 > limit:
                    name = re.findall(r"([~\w:]+)\s*\(", text)
                    found.append((path, start, line - start + 1, name[0] if name else text[:40]))
            header = ""
        elif ch == ";":
            header = ""
        else:
            header += ch
    return found


def main():
    limit = int(sys.argv[1])
    args = sys.argv[2:]
    # --tables=a,b: functions that are data tables (a row per item), exempt from the limit.
    tables = set()
    if args and args[0].startswith("--tables="):
        tables = set(args.pop(0)[len("--tables="):].split(","))
    hits = [hit for path in args for hit in long_functions(path, limit) if hit[3].split("::")[-1] not in tables]
    for path, start, length, name in hits:
        print(f"{path}:{start}: {name} is {length} lines (limit {limit})")
    if hits:
        print(f"{len(hits)} function(s) over {limit} lines: split them into functions that say what they do")
        return 1
    print(f"no function over {limit} lines in {len(args)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
