#!/usr/bin/python3
"""check_module_boundaries.py [--suggest] MANIFEST: the module boundaries that CMake declares hold in the sources.

MANIFEST is the JSON file that crosscheck_write_module_manifest() (cmake/CrosscheckModule.cmake) writes
at configure time: the source root, the include roots, and each module with its folder and its PUBLIC
and PRIVATE module dependencies. The check fails (exit 1, one line per violation, file:line first) when
  - the declared module graph has a cycle;
  - a file includes a header of another module that is not among its module's declared dependencies;
  - a public header of a module includes a module that is only a PRIVATE dependency (a consumer of the
    header would need it), or a PUBLIC dependency is included by no public header (it should be PRIVATE);
  - a file includes another module's internal header (one under that module's detail/ folder), or
    names another module's detail namespace (`decoder::detail`, say, even in a forward declaration);
  - a source file sits in a folder under a module root (src/) that is no module (a new folder needs a
    crosscheck_module() call, or its files are compiled nowhere);
  - a module includes a project file that belongs to no module (fuzz/, bench/, tests/).
Exit 2 on a manifest that cannot be read.

With --suggest, prints instead, for every module and every source folder under a module root that is
no module yet, the crosscheck_module() line its includes call for (external LIBS are not derived).
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
DETAIL_REF = re.compile(r"\b([A-Za-z_]\w*)::detail\b")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")


def load_manifest(path):
    try:
        with open(path) as f:
            manifest = json.load(f)
        root = manifest["root"]
        modules = {m["name"]: m for m in manifest["modules"]}
        for m in modules.values():
            m["public"] = list(m.get("public", []))
            m["private"] = list(m.get("private", []))
            m["dir"] = m["dir"].strip("/")
        return root, manifest.get("include_roots", ["."]), manifest.get("module_roots", []), modules
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: not a module manifest: {e}", file=sys.stderr)
        sys.exit(2)


def find_cycle(modules):
    """One cycle of the declared graph as a list of names (first == last), or None."""
    state = {}  # name -> 1 on the stack, 2 done
    stack = []

    def visit(name):
        state[name] = 1
        stack.append(name)
        for dep in modules[name]["public"] + modules[name]["private"]:
            if dep not in modules:
                continue
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(modules):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def strip_comments(line, in_block):
    """The line without // and /* */ comments (string literals are not special here); the new state."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_block = False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block = True
            i += 2
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def project_includes(root, include_roots, rel):
    """(line number, resolved path relative to root) of each quoted include of a project file in rel."""
    out = []
    in_block = False
    with open(os.path.join(root, rel), errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            code, in_block = strip_comments(raw, in_block)
            inc = INCLUDE.match(code)
            if not inc:
                continue
            for c in [os.path.join(os.path.dirname(rel), inc.group(1))] + [
                    os.path.join(r, inc.group(1)) for r in include_roots]:
                if os.path.isfile(os.path.join(root, os.path.normpath(c))):
                    out.append((lineno, os.path.normpath(c)))
                    break
    return out


def suggest(root, include_roots, module_roots, modules):
    folders = {m["dir"]: (name, m.get("kind", "library")) for name, m in modules.items()}
    for mroot in module_roots:
        for dirpath, _, files in os.walk(os.path.join(root, mroot)):
            rel = os.path.relpath(dirpath, root)
            if os.path.basename(rel) != "detail" and rel not in folders and any(
                    f.endswith(SOURCE_SUFFIXES) for f in files):
                folders[rel] = (os.path.basename(rel), "library")

    def owner(rel):
        folder = os.path.dirname(rel)
        if os.path.basename(folder) == "detail":
            folder = os.path.dirname(folder)
        return folders.get(folder, (None,))[0]

    for folder, (name, kind) in sorted(folders.items(), key=lambda x: x[1][0]):
        public, private = set(), set()
        for sub in ("", "detail"):
            path = os.path.join(root, folder, sub)
            if not os.path.isdir(path):
                continue
            for f in sorted(os.listdir(path)):
                if not f.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.normpath(os.path.join(folder, sub, f))
                is_public = not sub and not f.endswith((".cpp", ".cc")) and kind == "library"
                for _, target in project_includes(root, include_roots, rel):
                    dep = owner(target)
                    if dep and dep != name:
                        (public if is_public else private).add(dep)
        line = f"crosscheck_module(NAME {name}"
        if folder != f"src/{name}":
            line += f" DIR {folder}"
        if public:
            line += " PUBLIC_DEPS " + " ".join(sorted(public))
        if private - public:
            line += " DEPS " + " ".join(sorted(private - public))
        print(line + ")" + ("" if name in modules else "  # not declared yet"))


def main():
    args = sys.argv[1:]
    want_suggest = "--suggest" in args
    args = [a for a in args if a != "--suggest"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        sys.exit(2)
    root, include_roots, module_roots, modules = load_manifest(args[0])
    if want_suggest:
        suggest(root, include_roots, module_roots, modules)
        return
    problems = []

    for name, m in sorted(modules.items()):
        for dep in m["public"] + m["private"]:
            if dep not in modules:
                problems.append(f"module {name}: depends on {dep}, which is no module")
            if dep == name:
                problems.append(f"module {name}: depends on itself")
    cycle = find_cycle(modules)
    if cycle:
        problems.append("module graph has a cycle: " + " -> ".join(cycle))

    by_dir = {m["dir"]: name for name, m in modules.items()}

    def owner(rel):
        """(module, internal) of a file given relative to root; (None, False) outside every module."""
        folder = os.path.dirname(rel)
        if folder in by_dir:
            return by_dir[folder], False
        if os.path.basename(folder) == "detail" and os.path.dirname(folder) in by_dir:
            return by_dir[os.path.dirname(folder)], True
        return None, False

    def resolve(including_rel, target):
        candidates = [os.path.join(os.path.dirname(including_rel), target)]
        candidates += [os.path.join(r, target) for r in include_roots]
        for c in candidates:
            rel = os.path.normpath(c)
            if os.path.isfile(os.path.join(root, rel)):
                return rel
        return None

    # Every source file under a module root belongs to a module.
    for mroot in module_roots:
        for dirpath, _, files in os.walk(os.path.join(root, mroot)):
            for f in sorted(files):
                if f.endswith(SOURCE_SUFFIXES):
                    rel = os.path.relpath(os.path.join(dirpath, f), root)
                    if owner(rel)[0] is None:
                        problems.append(f"{rel}: in no module (add crosscheck_module(NAME "
                                        f"{os.path.basename(os.path.dirname(rel))} ...) to CMakeLists.txt)")

    used_publicly = {name: set() for name in modules}
    for name, m in sorted(modules.items()):
        allowed = set(m["public"]) | set(m["private"]) | {name}
        for sub in ("", "detail"):
            folder = os.path.join(root, m["dir"], sub)
            if not os.path.isdir(folder):
                continue
            for f in sorted(os.listdir(folder)):
                if not f.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.normpath(os.path.join(m["dir"], sub, f))
                # An executable's headers have no consumers: only libraries have public headers.
                public_header = (not sub and not f.endswith((".cpp", ".cc"))
                                 and m.get("kind", "library") == "library")
                in_block = False
                with open(os.path.join(root, rel), errors="replace") as fh:
                    for lineno, raw in enumerate(fh, 1):
                        code, in_block = strip_comments(raw, in_block)
                        for ref in DETAIL_REF.findall(code):
                            if ref in modules and ref != name:
                                problems.append(f"{rel}:{lineno}: names {ref}::detail, the internals of "
                                                f"module {ref}; use its public header")
                        inc = INCLUDE.match(code)
                        if not inc:
                            continue
                        target = resolve(rel, inc.group(1))
                        if target is None:
                            continue  # not a project file (a quoted system header)
                        dep, internal = owner(target)
                        if dep is None:
                            problems.append(f"{rel}:{lineno}: includes {target}, which belongs to no module")
                            continue
                        if dep == name:
                            continue
                        if internal:
                            problems.append(f"{rel}:{lineno}: includes {target}, an internal header of "
                                            f"module {dep}")
                        elif dep not in allowed:
                            problems.append(f"{rel}:{lineno}: includes {target}, but module {name} does not "
                                            f"depend on module {dep}")
                        elif public_header:
                            used_publicly[name].add(dep)
                            if dep not in m["public"]:
                                problems.append(f"{rel}:{lineno}: public header includes {target}, but {dep} "
                                                f"is a PRIVATE dependency of module {name} (make it PUBLIC)")
    for name, m in sorted(modules.items()):
        for dep in m["public"]:
            if dep in modules and dep not in used_publicly[name]:
                problems.append(f"module {name}: PUBLIC dependency {dep} is included by no public header "
                                f"of {m['dir']}/ (make it PRIVATE)")

    for p in problems:
        print(p)
    print(f"module boundaries: {len(modules)} modules, {len(problems)} violation(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
