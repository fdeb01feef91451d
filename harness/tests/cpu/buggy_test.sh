#!/usr/bin/env bash
# Grades the corpus of realistic buggy submissions (harness/tests/cpu/data/buggy, one bug each,
# manifest.tsv there) and measures whether each report NAMES the bug's class and whether it says
# something MISLEADING (issue 12).
#
#   buggy_test.sh CUGRADE [--backend cpu|cuda] [--jobs N] [--work DIR] [--table FILE]
#                 [--min-named PERCENT] [--max-misleading N] [--reuse | --resume]
#                 [--parity GPU_CASES [--min-parity PERCENT]] [ITEM...]
#
# Per item (<assignment>/<name>, ITEM filters by glob): `cugrade check --json`; the report's
# words (the build message, every case's message and every comparison's pattern, lowercased)
# NAME the class when they contain one of the item's "names" phrases, and MISLEAD when they
# contain one of its "misleading" phrases. Prints one row per item, the share named and the
# misleading count, per class and in total, and each item's outcome (the manifest's expected CPU
# outcome and GPU note are for the CPU/GPU parity check of issue 13; not judged here).
# An item with a line (the manifest's optional last column, "off_by_one_le.cu:8": where its bad
# access is; "a.cu:12|a.cu:13" where compilers name either) must have a report that quotes that
# line ("is at off_by_one_le.cu:8: `...`") on the CPU backend, else the run fails; on a GPU the
# quoted lines are counted only.
# --reuse: score the reports already in --work without grading again (after a manifest change).
# --resume: grade only the items that have no report in --work yet (a run that was cut), then
# score them all.
# --parity: per-case verdict parity (issue 13) with the verdicts a GPU gave, GPU_CASES holding
# "item<TAB>case id<TAB>outcome" lines (data/buggy/gpu_cases.tsv, recorded on an H100): an item
# agrees when every case both list passed on both or failed on both. An item that disagrees must
# say why in the manifest's gpu column ("undefined: ..."), else the run fails; so does a share of
# agreeing items below --min-parity (default 0).
# Exits 1 when the share named is below --min-named (default 0: record only) or more than
# --max-misleading (default: no limit) reports mislead; 77 (CTest: Skipped) when jq is missing or
# --backend cuda finds no GPU.
# grade() runs through xargs, so shellcheck takes its body for unreachable.
# shellcheck disable=SC2317
set -uo pipefail

cugrade=${1:?usage: buggy_test.sh CUGRADE [options] [ITEM...]}
shift
corpus="$(cd "$(dirname "$0")/data/buggy" && pwd)"
backend=cpu jobs=$(nproc) work="" table="" min_named=0 max_misleading="" reuse=0 resume=0 parity="" min_parity=0
filters=()
while (($#)); do
  case "$1" in
    --backend) backend=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    --min-named) min_named=$2; shift 2 ;;
    --max-misleading) max_misleading=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --resume) resume=1; shift ;;
    --parity) parity=$2; shift 2 ;;
    --min-parity) min_parity=$2; shift 2 ;;
    *) filters+=("$1"); shift ;;
  esac
done
if [[ -z "$work" ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

if ! command -v jq >/dev/null; then
  echo "buggy: no jq (scripts/install-deps.sh --test-tools installs it): the corpus is not graded"
  exit 77
fi
if [[ "$backend" == cuda ]] && ((!reuse)) && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "buggy: no GPU here (nvidia-smi -L failed); the cuda backend is not run"
  exit 77
fi

# The manifest: item, class, names, misleading (then the CPU outcome and the GPU note, for issue 13).
declare -A klass names misleading gpu_note line_of
items=()
while IFS=$'\t' read -r item cls name_list mislead_list _ gpu line; do
  [[ -z "$item" || "$item" == \#* ]] && continue
  [[ -f "$corpus/$item.cu" ]] || { echo "buggy: manifest names $item, which has no $item.cu"; exit 1; }
  if ((${#filters[@]})); then
    keep=0
    # shellcheck disable=SC2053  # ITEM may be a glob
    for f in "${filters[@]}"; do [[ "$item" == $f ]] && keep=1; done
    ((keep)) || continue
  fi
  items+=("$item")
  klass[$item]=$cls names[$item]=$name_list misleading[$item]=$mislead_list gpu_note[$item]=$gpu line_of[$item]=$line
done <"$corpus/manifest.tsv"
((${#items[@]})) || { echo "buggy: no items"; exit 1; }
# Every file must be in the manifest: a bug without its expectations would be measured by nothing.
while IFS= read -r file; do
  item=${file#"$corpus"/}
  item=${item%.cu}
  [[ -n "${klass[$item]+x}" ]] || ((${#filters[@]})) || { echo "buggy: $item.cu is not in manifest.tsv"; exit 1; }
done < <(find "$corpus" -name '*.cu' | sort)

# Grades one item into $work/<item>.json (and .log).
grade() {
  local item=$1 out="$work/$1"
  mkdir -p "$(dirname "$out")"
  "$cugrade" check "${item%%/*}" -s "$corpus/$item.cu" --backend "$backend" --no-performance -q \
    --no-color --report "json=$out.json" >"$out.log" 2>&1
  echo "$?" >"$out.rc"
}
export -f grade
export cugrade corpus work backend
if ((!reuse)); then
  for item in "${items[@]}"; do ((resume)) && [[ -f "$work/$item.json" ]] || echo "$item"; done |
    xargs -r -P "$jobs" -I{} bash -c "grade {}"
fi

# The words of one report, lowercased, on one line.
words() {
  jq -r '[.build.message, (.cases[]? | .message, (.comparisons[]? | .pattern))] | map(select(. != null and . != ""))
         | join(" | ")' "$1" | tr '[:upper:]' '[:lower:]' | tr '\n\t' '  '
}
# The first phrase of a |-separated list that occurs in the text; "" when none does.
first_hit() {
  local text=$1 list=$2 phrase
  local -a phrases
  IFS='|' read -r -a phrases <<<"$list"
  for phrase in "${phrases[@]}"; do
    phrase=$(tr '[:upper:]' '[:lower:]' <<<"$phrase")
    [[ -n "$phrase" && "$text" == *"$phrase"* ]] && { echo "$phrase"; return; }
  done
}

declare -A class_total class_named class_misleading
total=0 named_total=0 misleading_total=0 lines_total=0 lines_quoted=0
rows=() unquoted=()
for item in "${items[@]}"; do
  json="$work/$item.json" cls=${klass[$item]}
  total=$((total + 1))
  class_total[$cls]=$((${class_total[$cls]:-0} + 1))
  if [[ ! -s "$json" ]]; then
    rows+=("$(printf '%-44s %-9s %-13s %-5s %-5s no report (cugrade exit %s)' "$item" "$cls" "-" "no" "-" "$(cat "$work/$item.rc")")")
    continue
  fi
  text=$(words "$json")
  outcome=$(jq -r '.outcome' "$json")
  # The item's own file name ("naive_no_bounds_check.cu", quoted with a line) names nothing.
  own_file=$(tr '[:upper:]' '[:lower:]' <<<"${item##*/}.cu")
  scored=${text//"$own_file"/file.cu}
  hit=$(first_hit "$scored" "${names[$item]}")
  bad=$(first_hit "$scored" "${misleading[$item]}")
  [[ -n "$hit" ]] && { named_total=$((named_total + 1)); class_named[$cls]=$((${class_named[$cls]:-0} + 1)); }
  [[ -n "$bad" ]] && { misleading_total=$((misleading_total + 1)); class_misleading[$cls]=$((${class_misleading[$cls]:-0} + 1)); }
  if [[ -n "${line_of[$item]}" ]]; then
    lines_total=$((lines_total + 1))
    quoted=0
    IFS='|' read -r -a lines <<<"${line_of[$item]}"
    for line in "${lines[@]}"; do
      quote=$(tr '[:upper:]' '[:lower:]' <<<"is at $line: \`")
      [[ "$text" == *"$quote"* ]] && quoted=1
    done
    if ((quoted)); then lines_quoted=$((lines_quoted + 1)); else unquoted+=("$item (${line_of[$item]})"); fi
  fi
  rows+=("$(printf '%-44s %-9s %-13s %-5s %-5s %s' "$item" "$cls" "$outcome" "$([[ -n $hit ]] && echo yes || echo no)" \
    "$([[ -n $bad ]] && echo YES || echo no)" "${bad:+misleads: \"$bad\"; }${text:0:300}")")
done

echo "== backend $backend: item, class, outcome, named, misleading, the report's first words"
printf '%s\n' "${rows[@]}"
echo "== per class: named / items, misleading"
for cls in $(printf '%s\n' "${!class_total[@]}" | sort); do
  printf '%-9s %2d / %2d named, %d misleading\n' "$cls" "${class_named[$cls]:-0}" "${class_total[$cls]}" "${class_misleading[$cls]:-0}"
done
share=$((1000 * named_total / total))
echo "== $backend: $named_total of $total reports name the bug's class ($((share / 10)).$((share % 10)) %);" \
  "$misleading_total say something misleading"

if [[ -n "$table" ]]; then
  {
    echo "| class | items | named | misleading |"
    echo "|---|---|---|---|"
    for cls in $(printf '%s\n' "${!class_total[@]}" | sort); do
      echo "| $cls | ${class_total[$cls]} | ${class_named[$cls]:-0} | ${class_misleading[$cls]:-0} |"
    done
    echo "| all | $total | $named_total ($((share / 10)).$((share % 10)) %) | $misleading_total |"
  } >"$table"
  echo "table written to $table"
fi

status=0
if ((lines_total)); then
  echo "== $backend: $lines_quoted of $lines_total reports quote the line of their bad access"
  ((${#unquoted[@]} == 0)) || echo "   not quoted: ${unquoted[*]}"
  [[ "$backend" != cpu || ${#unquoted[@]} -eq 0 ]] || status=1
fi
if [[ -n "$parity" ]]; then
  [[ -f "$parity" ]] || { echo "buggy: no parity file $parity"; exit 1; }
  # The GPU's verdict per case, "passed" or "failed".
  declare -A gpu_verdict
  while IFS=$'\t' read -r item case_id outcome; do
    [[ -z "$item" || "$item" == \#* ]] && continue
    gpu_verdict["$item|$case_id"]=$([[ "$outcome" == passed ]] && echo passed || echo failed)
  done <"$parity"
  agree=0 compared=0 unexplained=0
  echo "== per-case verdicts against the GPU's ($parity)"
  for item in "${items[@]}"; do
    json="$work/$item.json"
    [[ -s "$json" ]] || continue
    differ=() seen=0
    while IFS=$'\t' read -r case_id outcome; do
      key="$item|$case_id"
      [[ -n "${gpu_verdict[$key]+x}" ]] || continue
      seen=$((seen + 1))
      mine=$([[ "$outcome" == passed ]] && echo passed || echo failed)
      [[ "$mine" == "${gpu_verdict[$key]}" ]] || differ+=("$case_id ($backend $mine, gpu ${gpu_verdict[$key]})")
    done < <(jq -r '.cases[]? | "\(.id)\t\(.outcome)"' "$json")
    ((seen)) || continue
    compared=$((compared + 1))
    if ((${#differ[@]} == 0)); then
      agree=$((agree + 1))
    elif [[ "${gpu_note[$item]}" == undefined* ]]; then
      echo "$item: ${#differ[@]} cases differ, as the manifest says (${gpu_note[$item]}): ${differ[0]}"
    else
      unexplained=$((unexplained + 1))
      echo "$item: ${#differ[@]} cases differ and the manifest gives no reason: ${differ[*]:0:3}"
    fi
  done
  ((compared)) || { echo "buggy: no item of this run is in $parity"; exit 1; }
  pshare=$((1000 * agree / compared))
  echo "== parity: $agree of $compared submissions have every case's verdict as on the GPU ($((pshare / 10)).$((pshare % 10)) %); $unexplained differ without a reason"
  ((unexplained == 0)) || status=1
  ((10 * min_parity <= pshare)) || { echo "== below the threshold: at least $min_parity % must agree"; status=1; }
fi
((10 * min_named <= share)) || { echo "== below the threshold: at least $min_named % must be named"; status=1; }
if [[ -n "$max_misleading" ]] && ((misleading_total > max_misleading)); then
  echo "== above the threshold: at most $max_misleading may mislead"
  status=1
fi
exit $status
