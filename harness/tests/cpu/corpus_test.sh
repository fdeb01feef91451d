#!/usr/bin/env bash
# Grades the corpus of real public CUDA files (harness/tests/cpu/data/corpus, README.md there) on
# one or more backends and compares every item with its expected verdicts.
#
#   corpus_test.sh CUGRADE [--backend cpu|cuda|cpu,cuda] [--jobs N] [--work DIR] [--table FILE]
#                  [--min-build-rate PERCENT] [ITEM...]
#
# An item is <folder>/<name>.cu with <folder>/<name>.expected beside it; ITEM filters by
# "<folder>/<name>". Per item and backend: the build outcome and each case's outcome against the
# first line of the expected file whose pattern matches the case id (`undefined` lines are shown
# but not compared). --table writes a Markdown table, one row per item, one column group per
# backend. Exits 0 when every compared verdict is as expected and, on each backend, at least
# --min-build-rate percent (default 95) of the items a GPU builds (their "build passed") built;
# 1 otherwise; 77 (CTest: Skipped) when jq is missing or --backend cuda finds no GPU.
# grade() runs through xargs, so shellcheck takes its body for unreachable.
# shellcheck disable=SC2317
set -uo pipefail

cugrade=${1:?usage: corpus_test.sh CUGRADE [options] [ITEM...]}
shift
corpus="$(cd "$(dirname "$0")/data/corpus" && pwd)"
backends=cpu jobs=$(nproc) work="" table="" min_rate=95
filters=()
while (($#)); do
  case "$1" in
    --backend) backends=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    --min-build-rate) min_rate=$2; shift 2 ;;
    *) filters+=("$1"); shift ;;
  esac
done
if [[ -z "$work" ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

if ! command -v jq >/dev/null; then
  echo "corpus: no jq (scripts/install-deps.sh --test-tools installs it): the corpus is not graded"
  exit 77
fi
if [[ ",$backends," == *,cuda,* ]] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "corpus: no GPU here (nvidia-smi -L failed); the cuda backend is not run"
  exit 77
fi

items=()
while IFS= read -r expected; do
  item=${expected#"$corpus"/}
  item=${item%.expected}
  if ((${#filters[@]})); then
    keep=0
    # shellcheck disable=SC2053  # ITEM may be a glob
    for f in "${filters[@]}"; do [[ "$item" == $f ]] && keep=1; done
    ((keep)) || continue
  fi
  items+=("$item")
done < <(find "$corpus" -name '*.expected' | sort)
((${#items[@]})) || { echo "corpus: no items"; exit 1; }

# Grades one item on one backend into $work/<backend>/<item>.json (and .log).
grade() {
  local backend=$1 item=$2
  local out="$work/$backend/$item"
  mkdir -p "$(dirname "$out")"
  local assignment
  assignment=$(awk '$1 == "assignment" { print $2; exit }' "$corpus/$item.expected")
  "$cugrade" check "$assignment" -s "$corpus/$item.cu" --backend "$backend" --no-performance -q \
    --no-color --report "json=$out.json" >"$out.log" 2>&1
  echo "$?" >"$out.rc"
}
export -f grade
export cugrade corpus work
for backend in ${backends//,/ }; do
  printf '%s\n' "${items[@]}" | xargs -P "$jobs" -I{} bash -c "grade $backend {}"
done

# Compares one graded item with its expected file; prints a line per difference to stderr and
# "built buildable agree undefined differ" to stdout (buildable: a GPU builds it).
compare() {
  local backend=$1 item=$2 json="$work/$1/$2.json" expected="$corpus/$2.expected"
  if [[ ! -s "$json" ]]; then
    echo "  $item [$backend]: no report (cugrade exit $(cat "$work/$backend/$item.rc")): $(tail -3 "$work/$backend/$item.log")" >&2
    echo "0 1 0 0 1"
    return
  fi
  local build want_build
  build=$(jq -r '.build.outcome' "$json")
  # A "<backend>-build" line (a construct that backend refuses) overrides the "build" line.
  want_build=$(awk -v own="$backend-build" '$1 == own { print $2; found = 1; exit }
                                             $1 == "build" && !b { b = $2 } END { if (!found) print b }' "$expected")
  local built=0 buildable=0 agree=0 undefined=0 differ=0
  [[ "$build" == passed ]] && built=1
  [[ "$(awk '$1 == "build" { print $2; exit }' "$expected")" == passed ]] && buildable=1
  if [[ "$build" != "${want_build:-passed}" ]]; then
    differ=$((differ + 1))
    echo "  $item [$backend]: build $build, expected ${want_build:-passed}: $(jq -r '.build.message' "$json" | head -c 600)" >&2
  fi
  [[ "$build" == passed ]] || { echo "$built $buildable $agree $undefined $differ"; return; }
  local rules
  rules=$(grep -vE '^\s*(#|$|assignment\s|([a-z]+-)?build\s)' "$expected")
  while IFS=$'\t' read -r id outcome message; do
    [[ -z "$id" ]] && continue
    local want=""
    # shellcheck disable=SC2053  # the expected file's patterns are globs
    while read -r pattern verdict _; do
      if [[ "$id" == $pattern ]]; then want=$verdict; break; fi
    done <<<"$rules"
    if [[ "$want" == undefined ]]; then
      undefined=$((undefined + 1))
    elif [[ "$outcome" == "$want" ]]; then
      agree=$((agree + 1))
    else
      differ=$((differ + 1))
      echo "  $item [$backend] $id: $outcome, expected ${want:-(no rule)}: ${message:0:400}" >&2
    fi
  done < <(jq -r '.cases[] | [.id, .outcome, (.message | gsub("[\t\n]"; " "))] | @tsv' "$json")
  echo "$built $buildable $agree $undefined $differ"
}

status=0
declare -A cell
for backend in ${backends//,/ }; do
  total=0 built_total=0 differ_total=0
  echo "== backend $backend"
  for item in "${items[@]}"; do
    read -r built buildable agree undefined differ < <(compare "$backend" "$item")
    total=$((total + buildable))
    built_total=$((built_total + built * buildable))
    differ_total=$((differ_total + differ))
    build=$(jq -r '.build.outcome' "$work/$backend/$item.json" 2>/dev/null || echo "no report")
    verdict=$([[ $differ == 0 ]] && echo ok || echo "DIFFERS")
    printf '%-44s %-8s build %-14s %4d as expected, %3d undefined, %3d differ\n' "$item" "$verdict" "$build" \
      "$agree" "$undefined" "$differ"
    cell["$backend/$item"]="$build | $agree / $undefined / $differ"
  done
  rate=$((1000 * built_total / total))
  echo "== $backend: $built_total of the $total items a GPU builds built ($((rate / 10)).$((rate % 10)) %);" \
    "$differ_total verdicts differ from the expected"
  ((differ_total == 0)) || status=1
  ((100 * built_total >= min_rate * total)) || { echo "== $backend: build rate below $min_rate %"; status=1; }
done

# With two backends: per item, how many cases got the same outcome on both, and which did not.
agreement() {
  local a="$work/$1/$3.json" b="$work/$2/$3.json"
  [[ -s "$a" && -s "$b" ]] || { echo "-"; return; }
  jq -rn --slurpfile a "$a" --slurpfile b "$b" '
    ($a[0].cases | map({(.id): .outcome}) | add // {}) as $x |
    ($b[0].cases | map({(.id): .outcome}) | add // {}) as $y |
    [$x | keys[] | select($y[.] != null)] as $ids |
    [$ids[] | select($x[.] != $y[.])] as $diff |
    "\($ids | length - ($diff | length)) of \($ids | length)" +
      (if ($diff | length) > 0 then " (differ: " + ([$diff[:5][] | "\(.) \($x[.])/\($y[.])"] | join(", ")) + ")" else "" end)'
}

if [[ -n "$table" ]]; then
  read -r -a listed <<<"${backends//,/ }"
  {
    printf '| item |'
    for backend in "${listed[@]}"; do printf ' %s build | %s cases as expected / undefined / differ |' "$backend" "$backend"; done
    ((${#listed[@]} == 2)) && printf ' same outcome on both |'
    printf '\n|---|'
    for backend in "${listed[@]}"; do printf -- '---|---|'; done
    ((${#listed[@]} == 2)) && printf -- '---|'
    printf '\n'
    for item in "${items[@]}"; do
      printf '| %s |' "$item"
      for backend in "${listed[@]}"; do printf ' %s |' "${cell["$backend/$item"]}"; done
      ((${#listed[@]} == 2)) && printf ' %s |' "$(agreement "${listed[0]}" "${listed[1]}" "$item")"
      printf '\n'
    done
  } >"$table"
  echo "table written to $table"
  cat "$table"
fi
exit $status
