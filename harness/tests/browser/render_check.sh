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
  empty_template) expect 'id="correctness"'; expect '28 cases (n = 1, 7, 31, 32, 33, 255, …)' ;;
  class_summary) expect 'id="scores"'; expect 'id="performance"'; expect 'id="students"'
                 expect '<circle' ;;
  leaderboard) expect 'class="leaderboard"'; expect 'id="left-out"'; expect 'not every case passed' ;;
  similarity) expect 'id="pairs"'; expect 'id="pair-1"'; expect 'id="pair-2"'; expect 'class="r0"'
              expect '&lt;script&gt;x' ;;
esac
if grep -q '<script' "$out/$page.dom"; then echo "FAIL: $page: a script element in the DOM"; exit 1; fi

# The step summary, measured where Chromium laid it out: a copy of the page with a probe script
# (the page itself has none) records whether the table is there, visible, inside the page's
# width with no cell overflowing, on the first screen and before the build's section.
width=1100 height=1400
if [ "$page" != class_summary ] && [ "$page" != similarity ] && [ "$page" != leaderboard ]; then
  probe='<script>(function () {
  var t = document.querySelector("#steps table"), r = "missing";
  if (t) {
    var b = t.getBoundingClientRect(), s = document.getElementById("steps"), st = getComputedStyle(t);
    var visible = b.width > 0 && b.height > 0 && st.visibility === "visible" && st.display !== "none";
    var fits = t.scrollWidth <= s.clientWidth + 1 && b.right <= document.documentElement.clientWidth + 1;
    for (var c of t.querySelectorAll("td, th")) if (c.scrollWidth > c.clientWidth + 1) fits = false;
    var first = b.bottom <= window.innerHeight;
    var before = (s.compareDocumentPosition(document.getElementById("build")) & 4) !== 0;
    r = [visible ? "visible" : "hidden", fits ? "fits" : "overflows", first ? "first-screen" : "below",
         before ? "before-build" : "after-build", "rows=" + t.tBodies[0].rows.length].join(" ");
  }
  document.documentElement.setAttribute("data-steps", r);
})();</script>'
  # After </html> the parser still puts it in the body, where it runs once the page is laid out.
  { cat "$out/$page.html"; printf '%s\n' "$probe"; } > "$out/$page.probe.html"
  timeout 90 "$chromium" "${flags[@]}" --window-size="$width,$height" --dump-dom "file://$out/$page.probe.html" \
    > "$out/$page.probe.dom" 2>> "$out/$page.log"
  rows=2
  [ "$page" = compile_error ] && rows=1
  want="visible fits first-screen before-build rows=$rows"
  got=$(grep -o 'data-steps="[^"]*"' "$out/$page.probe.dom" || echo "no probe result")
  if [ "$got" != "data-steps=\"$want\"" ]; then echo "FAIL: $page: the step summary: $got, expected $want"; exit 1; fi
fi

# The picture: a PNG of the window's size, not blank (png_check counts colours and ink).
rm -f "$out/$page.png"
timeout 90 "$chromium" "${flags[@]}" --window-size="$width,$height" \
  --screenshot="$out/$page.png" "$url" >> "$out/$page.log" 2>&1
"$png_check" "$out/$page.png" "$width" "$height"
echo "ok: $page rendered ($out/$page.png)"
