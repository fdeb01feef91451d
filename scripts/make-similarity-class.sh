#!/usr/bin/env bash
# Generates a class for `cugrade similarity`: honest, independent code and planted copies of some
# of it, with a manifest saying which students share an origin. Used by the similarity test
# (harness/tests/similarity/class_similarity.sh) and to measure how well a tool separates them
# (docs/similarity.md).
#
#   scripts/make-similarity-class.sh ASSIGNMENT DIR [--manifest FILE]
#
# Honest students:
#   good-<id>-<name>   every assignment's known-good solutions (graders/<id>/solutions/good)
#   reference-<id>     every assignment's reference, its .cu files handed in together
#   corpus-<sample>    every sample of the real-code corpus (harness/tests/cpu/data/corpus: NVIDIA's
#                      samples and blog code), a sample's files together; SGEMM_CUDA's twelve
#                      kernels, one author's steps of one kernel, as one student
#   starter-1, -2      ASSIGNMENT's template as it was given (what everyone shares: the base code)
# Honest code is independent unless origin_of below gives two students one origin (the lecture's
# kernels as printed; one NVIDIA sample ported to other APIs).
# Planted copies of each of ASSIGNMENT's known-good solutions and of its reference:
#   <student>~renamed      every declared name changed
#   <student>~reordered    its functions in the opposite order
#   <student>~recommented  its comments replaced, blank lines and indentation changed
#   <student>~reformatted  clang-format's Mozilla style (another brace and line-break layout)
#   <student>~all          all four
# --manifest FILE: one line per student, "student,copied_from,origin": a planted copy's
# copied_from is the copied student, anyone else's is their own name; origin as origin_of says.
set -euo pipefail

usage() { sed -n '7,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 2 ] || usage
assignment=$1 dir=$2
shift 2
manifest=""
while [ $# -gt 0 ]; do
  case $1 in
    --manifest) manifest=$2; shift 2 ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$root/templates/$assignment" ] || { echo "make-similarity-class: no assignment $assignment" >&2; exit 1; }
command -v clang-format > /dev/null || { echo "make-similarity-class: clang-format is not installed (sudo apt-get install clang-format)" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -z "$(ls -A "$dir")" ] || { echo "make-similarity-class: $dir is not empty" >&2; exit 1; }
lines=()

# Honest code that is not independent, by what the files themselves say: the lecture's kernels
# as printed (the references and the lecture-style solutions say so in their first lines), and
# one NVIDIA sample ported to another API (the samples' READMEs say so). Everything else is its
# own origin.
origin_of() {
  case $1 in
    reference-*) echo "lecture-${1#reference-}" ;;
    good-*-lecture_style) local id=${1#good-}; echo "lecture-${id%-lecture_style}" ;;
    corpus-vectorAdd|corpus-simpleDrvRuntime|corpus-vectorAdd_nvrtc) echo nvidia-vectorAdd ;;
    corpus-matrixMul|corpus-matrixMulDrv) echo nvidia-matrixMul ;;
    *) echo "$1" ;;
  esac
}

# student ORIGIN FILE...: a student's folder holding FILE... (as .cu files, in order).
student() {
  local name=$1 origin=$2 i=0
  shift 2
  mkdir -p "$dir/$name"
  for file in "$@"; do
    i=$((i + 1))
    cp "$file" "$dir/$name/$(printf '%02d' "$i")-$(basename "${file%.*}").cu"
  done
  lines+=("$name,$name,$origin")
}

for good in "$root"/graders/*/solutions/good/*.cu; do
  id=$(basename "$(dirname "$(dirname "$(dirname "$good")")")")
  name="good-$id-$(basename "$good" .cu)"
  student "$name" "$(origin_of "$name")" "$good"
done
for ref in "$root"/reference/*/; do
  id=$(basename "$ref")
  student "reference-$id" "$(origin_of "reference-$id")" "$ref"*.cu
done
corpus=$root/harness/tests/cpu/data/corpus
# One student per sample: a sample's files (a .cu and the kernel header it includes) together.
while IFS= read -r folder; do
  mapfile -t files < <(find "$folder" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.cuh' \) | sort)
  # The corpus's own wrappers ("// Corpus item") are cugrade's, not real code.
  real=()
  for file in "${files[@]}"; do head -1 "$file" | grep -q '^// Corpus item' || real+=("$file"); done
  [ ${#real[@]} -gt 0 ] || continue
  name="corpus-$(basename "$folder")"
  [ -e "$dir/$name" ] && name="$name-$(basename "$(dirname "$folder")")"
  student "$name" "$(origin_of "$name")" "${real[@]}"
done < <(find "$corpus/cuda-samples/Samples" "$corpus/code-samples" -type d | sort)
mapfile -t sgemm < <(find "$corpus/sgemm/src/kernels" -name '*.cuh' | sort -V)
student corpus-sgemm-kernels corpus-sgemm-kernels "${sgemm[@]}"
student starter-1 starter-1 "$root/templates/$assignment"/*.cu
student starter-2 starter-2 "$root/templates/$assignment"/*.cu

# The transformations, each reading a file on stdin and writing it changed on stdout.
renamed() {
  # Every name declared after a type (int row, float* sum, dim3 grid, ...) becomes another,
  # except the entry points of the interface (the harness calls them by name).
  perl -e '
    local $/; my $text = <STDIN>; my %new; my $n = 0;
    my $types = qr/(?:int|float|double|unsigned|long|size_t|auto|bool|dim3|float4|float2|float3|char|short)/;
    while ($text =~ /\b$types\b\s*[*&]?\s*(?:const\s+)?([A-Za-z_]\w*)\s*(?=[=;,)\[(])/g) {
      my $name = $1;
      next if $name =~ /^(?:const|int|float|double|unsigned|long|void|main)$/;
      next if $text =~ /^void\s+\Q$name\E\s*\(/m;
      $new{$name} //= "v" . (++$n) . "_" . lc(substr($name, 0, 1));
    }
    for my $old (sort { length($b) <=> length($a) } keys %new) { $text =~ s/\b\Q$old\E\b/$new{$old}/g; }
    print $text;'
}
reordered() {
  # Preprocessor lines first, then the top-level blocks (each ending in a "}" at the start of a
  # line) in the opposite order.
  perl -e '
    my (@pre, @blocks, $cur);
    while (my $line = <STDIN>) {
      if ($line =~ /^#/) { push @pre, $line; next; }
      $cur .= $line;
      if ($line =~ /^\}/) { push @blocks, $cur; $cur = ""; }
    }
    print @pre, "\n", reverse(@blocks), $cur // "";'
}
recommented() {
  # Comments replaced by others, every indentation doubled, a blank line after each block.
  perl -pe '
    s{^\s*//.*$}{// (my notes)}; s{\s+//.*$}{ // see above};
    s/^( +)/$1$1/;
    $_ .= "\n" if /^\}/;'
}
reformatted() {
  clang-format --style='{BasedOnStyle: Mozilla, ColumnLimit: 90}' --assume-filename=copy.cu
}

# plant ORIGIN: the five copies of ORIGIN's files.
plant() {
  local origin=$1 kind file
  for kind in renamed reordered recommented reformatted all; do
    mkdir -p "$dir/$origin~$kind"
    for file in "$dir/$origin"/*.cu; do
      local copy
      copy="$dir/$origin~$kind/$(basename "$file")"
      if [ "$kind" = all ]; then
        renamed < "$file" | reordered | recommented | reformatted > "$copy"
      else
        "$kind" < "$file" > "$copy"
      fi
    done
    lines+=("$origin~$kind,$origin,$(origin_of "$origin")")
  done
}
for good in "$root/graders/$assignment/solutions/good"/*.cu; do
  plant "good-$assignment-$(basename "$good" .cu)"
done
plant "reference-$assignment"

if [ -n "$manifest" ]; then printf '%s\n' "${lines[@]}" > "$manifest"; fi
echo "make-similarity-class: ${#lines[@]} students in $dir"
