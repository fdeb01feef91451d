#!/usr/bin/env bash
# render_check.sh SAMPLES PNG_CHECK PAGE OUT_DIR: writes the sample reports, loads PAGE.html in
# headless Chromium, checks the DOM it built and the screenshot it took. Exit 77 (CTest:
# Skipped) when no Chromium is installed.
set -euo pipefail
samples=$1 png_check=$2 page=$3 out=$4
chromium=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null; then chromium=$(command -v "$candidate"); break; fi
done
if [ -z "$chromium" ]; then
  echo "no Chromium installed (apt-get install chromium): browser test skipped"
  exit 77
fi
mkdir -p "$out"
"$samples" "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1
       --user-data-dir="$profile" --no-first-run --disable-extensions)
url="file://$out/$page.html"

# The DOM as Chromium built it: the page parsed to the end, with its sections and charts.
timeout 90 "$chromium" "${flags[@]}" --dump-dom "$url" > "$out/$page.dom" 2> "$out/$page.log"
expect() {
  grep -q -- "$1" "$out/$page.dom" || { echo "FAIL: $page: the DOM lacks $1"; exit 1; }
}
expect '</main>'
case "$page" in
  student) expect 'id="correctness"'; expect 'id="performance"'; expect '<svg' ;;
  compile_error) expect 'id="build"'; expect 'compile_error' ;;
  class_summary) expect 'id="scores"'; expect 'id="performance"'; expect 'id="students"'
                 expect '<circle' ;;
esac
if grep -q '<script' "$out/$page.dom"; then echo "FAIL: $page: a script element in the DOM"; exit 1; fi

# The picture: a PNG of the window's size, not blank (png_check counts colours and ink).
width=1100 height=1400
rm -f "$out/$page.png"
timeout 90 "$chromium" "${flags[@]}" --window-size="$width,$height" \
  --screenshot="$out/$page.png" "$url" >> "$out/$page.log" 2>&1
"$png_check" "$out/$page.png" "$width" "$height"
echo "ok: $page rendered ($out/$page.png)"
