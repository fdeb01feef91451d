#!/usr/bin/env bash
# workflow_step.sh WORKFLOW NAME: prints the `run: |` block of the step named NAME in a GitHub
# workflow, without its indentation, so that a test runs the step's own shell text.
set -euo pipefail
awk -v name="$2" '
  function indent(line) { match(line, /^ */); return RLENGTH }
  $0 ~ "^ *- name: " && index($0, "- name: " name) && substr($0, index($0, "- name: ") + 8) == name { found = 1; next }
  found && !in_run && $0 ~ /^ *- / { exit }
  found && !in_run && $0 ~ /^ *run: \|$/ { in_run = 1; run_indent = indent($0); next }
  in_run {
    if ($0 != "" && indent($0) <= run_indent) exit
    if (!body_indent && $0 != "") body_indent = indent($0)
    print substr($0, body_indent + 1)
  }
' "$1"
