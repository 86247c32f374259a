#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debian/tests as autopkgtest reads them, with autopkgtest's own parser
# (testdesc.parse_debian_source): the control file parses, and on a testbed
# that is a whole machine with root, both tests run (none is skipped for a
# field, a restriction or a dependency), each an executable script in
# debian/tests.  The tests themselves run on the installed package, by
# autopkgtest (the cli one is tests/cli/run.sh).
# Usage: autopkgtest.sh SOURCE_DIR
set -u
src=$1
. "$(dirname "$(realpath "$0")")/../lib.sh"
need autopkgtest || { echo "FAIL cannot install autopkgtest"; exit 1; }
# autopkgtest runs on the system python3, with python3-debian.
exec /usr/bin/python3 - "$src" <<'PY'
import os
import sys

sys.path.insert(0, "/usr/share/autopkgtest/lib")
import testdesc  # noqa: E402

src = sys.argv[1]
caps = ["isolation-container", "isolation-machine", "root-on-testbed", "revert",
        "revert-full-system"]
failed = 0
try:
    tests, skipped = testdesc.parse_debian_source(src, caps, "amd64", auto_control=False)
except testdesc.InvalidControl as e:
    print(f"FAIL debian/tests/control: {e}")
    sys.exit(1)
names = sorted(t.name for t in tests)
if skipped or names != ["cli", "smoke"]:
    print(f"FAIL tests cli and smoke, none skipped: got {names}, skipped {skipped}")
    failed += 1
else:
    print("ok   debian/tests/control parses: cli and smoke, none skipped")
for t in tests:
    path = os.path.join(src, t.path)
    if os.access(path, os.X_OK):
        print(f"ok   {t.path} is executable")
    else:
        print(f"FAIL {t.path} is not executable")
        failed += 1
smoke = [t for t in tests if t.name == "smoke"]
if smoke and not {"needs-root", "isolation-machine"} <= set(smoke[0].restrictions):
    print(f"FAIL smoke lacks needs-root or isolation-machine: {smoke[0].restrictions}")
    failed += 1
sys.exit(1 if failed else 0)
PY
