#!/usr/bin/python3
"""ci_workflows.py ROOT: the GitHub workflows and the ClusterFuzzLite configuration parse and hang together.

No GitHub runner here, so this checks what can be checked offline: both workflow files are valid YAML
with the triggers, jobs and steps docs/ci.md describes; every local script a workflow runs exists and
is executable; the nightly fan-out is a shard matrix followed by a merge job that uploads artifacts
and writes the step summary (through ci/nightly.sh); the ClusterFuzzLite files are where its
documentation expects them, build.sh passes `bash -n`, and it and fuzz/CMakeLists.txt read one list
of sources (fuzz/sources.txt) whose entries exist. Run with Debian's python3 (python3-yaml).
"""
import os
import re
import subprocess
import sys

import yaml

root = sys.argv[1]
failures = []
passes = []


def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    (passes if ok else failures).append(name)


def load(rel):
    with open(os.path.join(root, rel)) as f:
        doc = yaml.safe_load(f)
    # YAML 1.1 reads the key `on` as the boolean true.
    if isinstance(doc, dict) and True in doc:
        doc["on"] = doc.pop(True)
    return doc


def steps(job):
    return job.get("steps") or []


def runs(job):
    return "\n".join(s.get("run", "") for s in steps(job))


def uses(job):
    return [s.get("uses", "") for s in steps(job)]


nightly = load(".github/workflows/crosscheck-nightly.yml")
check("nightly workflow parses to a mapping", isinstance(nightly, dict))
on = nightly.get("on") or {}
check("nightly triggers: schedule, workflow_dispatch, pull_request",
      all(k in on for k in ("schedule", "workflow_dispatch", "pull_request")), str(list(on)))
check("nightly schedule is a cron", bool(on.get("schedule")) and "cron" in on["schedule"][0])
jobs = nightly.get("jobs") or {}
check("nightly jobs: plan, fuzz, merge, pull-request",
      all(k in jobs for k in ("plan", "fuzz", "merge", "pull-request")), str(list(jobs)))
fuzz = jobs.get("fuzz", {})
check("fuzz is a matrix over shards", "shard" in ((fuzz.get("strategy") or {}).get("matrix") or {}))
check("fuzz runs ci/nightly.sh shard", "ci/nightly.sh shard" in runs(fuzz))
check("fuzz uploads the shard folder", any(u.startswith("actions/upload-artifact") for u in uses(fuzz)))
merge = jobs.get("merge", {})
needs = merge.get("needs") or []
check("merge needs the fuzz job", "fuzz" in (needs if isinstance(needs, list) else [needs]))
check("merge downloads the shards and runs ci/nightly.sh finish",
      any(u.startswith("actions/download-artifact") for u in uses(merge)) and "ci/nightly.sh finish" in runs(merge))
check("merge uploads the merged run and reports", any(u.startswith("actions/upload-artifact") for u in uses(merge)))
pr = jobs.get("pull-request", {})
check("pull-request job runs ci/pull-request.sh", "ci/pull-request.sh" in runs(pr))
for name, job in jobs.items():
    if name == "plan":
        continue
    paths = [(s.get("with") or {}).get("path") for s in steps(job) if s.get("uses", "").startswith("actions/checkout")]
    check(f"{name}: crosscheck and both SDKs checked out side by side",
          {"crosscheck", "sdks/go", "sdks/typescript"} <= set(paths), str(paths))
    check(f"{name}: AHP_GO_SDK and AHP_TYPESCRIPT_SDK point at the checkouts",
          "AHP_GO_SDK=$GITHUB_WORKSPACE/sdks/go" in runs(job) and "AHP_TYPESCRIPT_SDK=" in runs(job))
    check(f"{name}: ./setup install runs before the job's scripts", "./setup install" in runs(job))
# Every ci/ script a workflow names exists and is executable; ci/nightly.sh writes the step summary.
for script in sorted(set(re.findall(r"ci/[a-z-]+\.sh", runs(fuzz) + runs(merge) + runs(pr)))):
    path = os.path.join(root, script)
    check(f"{script} exists and is executable", os.access(path, os.X_OK))
common = open(os.path.join(root, "ci/common.sh")).read()
check("the scripts append the Markdown summary to $GITHUB_STEP_SUMMARY", "GITHUB_STEP_SUMMARY" in common)

cflite = load(".github/workflows/cflite.yml")
check("cflite workflow parses to a mapping", isinstance(cflite, dict))
text = open(os.path.join(root, ".github/workflows/cflite.yml")).read()
for mode in ("code-change", "batch", "prune"):
    check(f"cflite runs mode {mode}", re.search(r"mode:\s*'?" + mode, text) is not None)
cjobs = cflite.get("jobs") or {}
for name, job in cjobs.items():
    u = uses(job)
    check(f"cflite {name}: build_fuzzers then run_fuzzers",
          any("clusterfuzzlite/actions/build_fuzzers" in x for x in u)
          and any("clusterfuzzlite/actions/run_fuzzers" in x for x in u), str(u))
project = load(".clusterfuzzlite/project.yaml")
check("project.yaml says language c++", isinstance(project, dict) and project.get("language") == "c++")
docker = open(os.path.join(root, ".clusterfuzzlite/Dockerfile")).read()
check("Dockerfile builds on base-builder and copies the tree and build.sh",
      "FROM gcr.io/oss-fuzz-base/base-builder" in docker and "COPY . $SRC/" in docker
      and "COPY .clusterfuzzlite/build.sh $SRC/" in docker)
build = os.path.join(root, ".clusterfuzzlite/build.sh")
check("build.sh is executable and passes bash -n",
      os.access(build, os.X_OK) and subprocess.run(["bash", "-n", build]).returncode == 0)
targets = re.search(r"TARGETS=\(([^)]*)\)", open(build).read())
for t in (targets.group(1).split() if targets else []):
    check(f"build.sh target {t} has a source and a seed corpus",
          os.path.isfile(os.path.join(root, "fuzz", t + ".cpp")) and os.path.isdir(os.path.join(root, "fuzz/corpus", t)))
# One list of the fuzz targets' sources, read by build.sh and fuzz/CMakeLists.txt alike.
build_text = open(build).read()
check("build.sh and fuzz/CMakeLists.txt read fuzz/sources.txt",
      "fuzz/sources.txt" in build_text and "sources.txt" in open(os.path.join(root, "fuzz/CMakeLists.txt")).read())
entries = [line.strip() for line in open(os.path.join(root, "fuzz/sources.txt"))
           if line.strip() and not line.startswith("#")]
for entry in entries:
    path = os.path.join(root, entry)
    check(f"fuzz/sources.txt entry {entry} is a folder with .cpp files or a .cpp file",
          (os.path.isdir(path) and any(f.endswith(".cpp") for f in os.listdir(path)))
          or (os.path.isfile(path) and entry.endswith(".cpp")))

print(f"{len(passes)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
