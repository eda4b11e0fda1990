#!/usr/bin/python3
"""check_module_boundaries_test.py ROOT OUT CMAKE CXX: the boundary checker on a fixture project.

tests/data/module_boundaries is a three-module project (base <- mid <- top) declared with
cmake/CrosscheckModule.cmake. Each case copies it afresh to OUT/src, plants one violation,
configures it with CMake into OUT/build (the manifest comes from the real crosscheck_module
function; one build folder, so the compiler is probed once) and runs
cmake/check_module_boundaries.py: the clean copy must pass, every planted violation must fail with
exit 1 and a message naming the file (and line) and what is wrong.
"""
import os
import shutil
import subprocess
import sys

root, out, cmake, cxx = sys.argv[1:5]
fixture = os.path.join(root, "tests/data/module_boundaries")
checker = os.path.join(root, "cmake/check_module_boundaries.py")
failures = []


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, f"{path} has no {old!r}"
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


src = os.path.join(out, "src")
build = os.path.join(out, "build")
shutil.rmtree(out, ignore_errors=True)


def run_case(name, plant, expect_exit, expect_lines):
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(fixture, src)
    plant(src)
    conf = subprocess.run([cmake, "-S", src, "-B", build, f"-DCMAKE_CXX_COMPILER={cxx}",
                           f"-DCROSSCHECK_CMAKE_DIR={os.path.join(root, 'cmake')}"],
                          capture_output=True, text=True)
    if conf.returncode != 0:
        failures.append(name)
        print(f"FAIL {name}: configure failed\n{conf.stdout}{conf.stderr}")
        return
    res = subprocess.run([sys.executable, checker, os.path.join(build, "modules.json")],
                         capture_output=True, text=True)
    missing = [line for line in expect_lines if line not in res.stdout]
    if res.returncode != expect_exit or missing:
        failures.append(name)
        print(f"FAIL {name}: exit {res.returncode} (want {expect_exit}), missing {missing}\n{res.stdout}{res.stderr}")
    else:
        print(f"PASS {name}")


def nothing(src):
    pass


run_case("clean", nothing, 0, ["3 modules, 0 violation(s)"])
run_case("undeclared include",
         lambda s: edit(f"{s}/src/top/top.cpp", '#include "mid/mid.hpp"',
                        '#include "mid/mid.hpp"\n#include "base/base.hpp"'),
         1, ["src/top/top.cpp:4: includes src/base/base.hpp, but module top does not depend on module base"])
run_case("internal header of another module",
         lambda s: edit(f"{s}/src/mid/mid.cpp", "#include <string>", '#include "base/detail/hidden.hpp"'),
         1, ["src/mid/mid.cpp:3: includes src/base/detail/hidden.hpp, an internal header of module base"])
run_case("detail namespace of another module",
         lambda s: edit(f"{s}/src/top/top.cpp", "int run()",
                        "int peek() { return fixture::base::detail::hidden(); }\nint run()"),
         1, ["src/top/top.cpp:6: names base::detail, the internals of module base"])
run_case("cycle",
         lambda s: edit(f"{s}/CMakeLists.txt", "crosscheck_module(NAME base)", "crosscheck_module(NAME base DEPS top)"),
         1, ["module graph has a cycle: base -> top -> mid -> base"])
run_case("private dependency in a public header",
         lambda s: edit(f"{s}/CMakeLists.txt", "NAME mid PUBLIC_DEPS base", "NAME mid DEPS base"),
         1, ["src/mid/mid.hpp:2: public header includes src/base/base.hpp, but base is a PRIVATE dependency "
             "of module mid (make it PUBLIC)"])
run_case("public dependency no header needs",
         lambda s: edit(f"{s}/CMakeLists.txt", "NAME top DEPS mid", "NAME top PUBLIC_DEPS mid"),
         1, ["module top: PUBLIC dependency mid is included by no public header of src/top/ (make it PRIVATE)"])
run_case("folder without a module",
         lambda s: write(f"{s}/src/extra/extra.cpp", "int extra() { return 0; }\n"),
         1, ["src/extra/extra.cpp: in no module"])
run_case("project file outside every module",
         lambda s: edit(f"{s}/src/mid/mid.cpp", "#include <string>", '#include "tools/helper.hpp"'),
         1, ["src/mid/mid.cpp:3: includes tools/helper.hpp, which belongs to no module"])
run_case("unknown dependency",
         lambda s: edit(f"{s}/CMakeLists.txt", "NAME top DEPS mid", "NAME top DEPS mid nowhere"),
         1, ["module top: depends on nowhere, which is no module"])

print(f"{len(failures)} case(s) failed" if failures else "all cases passed")
sys.exit(1 if failures else 0)
