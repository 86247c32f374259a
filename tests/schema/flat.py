#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Usage: flat.py [FILE]: FILE (or stdin) with the blanks between JSON tokens
# removed, strings kept as they are, so that a test can match "key":value
# pairs of a pretty-printed report; text that is not JSON passes unchanged.
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
if text.lstrip().startswith("{"):
    text = re.sub(r'("(?:\\.|[^"\\])*")|\s+', lambda m: m.group(1) or "", text) + "\n"
sys.stdout.write(text)
