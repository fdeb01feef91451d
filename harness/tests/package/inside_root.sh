#!/usr/bin/env bash
# inside_root.sh: run by package_test.sh inside the fresh Debian 12 root where the package was
# just installed; SOURCE_ROOT and BUILD_DIR name the trees that must not be there.
set -euo pipefail
fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

for tree in "$SOURCE_ROOT" "$BUILD_DIR"; do
  [ ! -e "$tree" ] || fail "$tree is reachable in the root: the test would not show that the package is enough"
done
[ "$(command -v cugrade)" = /usr/bin/cugrade ] || fail "cugrade is not /usr/bin/cugrade"

# Every file in cugrade's folders is the package's, and every file the package lists is there.
dpkg -L cugrade | sort > /tmp/listed
find /usr/bin/cugrade /usr/share/cugrade /usr/lib/cugrade /usr/share/doc/cugrade -type f | sort > /tmp/found
unowned=$(comm -13 /tmp/listed /tmp/found)
[ -z "$unowned" ] || fail "files the package does not own: $unowned"
while read -r path; do [ -e "$path" ] || fail "dpkg -L lists $path, which is not there"; done < /tmp/listed
echo "ok: $(wc -l < /tmp/found) files, every one owned by cugrade (dpkg -L)"

mkdir -p /home/student && cd /home/student
cugrade doctor > doctor.txt || fail "cugrade doctor failed: $(cat doctor.txt)"
cat doctor.txt
grep -q "^cugrade .*installed beside /usr/bin/cugrade" doctor.txt || fail "doctor does not say cugrade is installed"
grep -q "^data .*/usr/share/cugrade" doctor.txt || fail "doctor does not show the data folder"
grep -q "^runners .*/usr/lib/cugrade/runners.*/usr/lib/cugrade/cpu-runners" doctor.txt || fail "doctor does not show the runners"
grep -q "^runner vecadd .*cpu ready" doctor.txt || fail "the CPU runner of vecadd is not ready"

# The sandbox inside the root: cugrade's bubblewrap nested in the one that entered it. Where the
# host forbids that, the checks grade unsealed, as `cugrade check` does wherever the sandbox does
# not work (its report says "not sealed"); this says so here (what sealing adds is tested by the
# attack suite, outside the root).
if ! grep -q "^sandbox .*works" doctor.txt; then
  echo "NOTE: cugrade's sandbox does not work nested inside this root ($(grep '^sandbox' doctor.txt));" \
       "the checks below grade unsealed"
fi

cugrade init vecadd mine > init.txt || fail "cugrade init failed: $(cat init.txt)"
for file in vecadd.cu interface.cuh .github/workflows/cugrade.yml; do
  [ -f "mine/$file" ] || fail "cugrade init did not write $file: $(ls -a mine)"
done

# The template compiles and fails its cases: graded (exit 0) below the bar, so --fail-under says 4.
status=0
start=$(now)
cugrade check vecadd --submission mine --backend cpu --fail-under 100% \
  --report json=template.json > template.txt 2>&1 || status=$?
end=$(now)
[ "$status" -eq 4 ] || { cat template.txt; fail "the template's check exited $status, not 4 (graded, below the bar)"; }
grep -q '"gradable": true' template.json || { cat template.txt; fail "the template did not build"; }
echo "ok: the template builds and fails, as a template should (the first check after the install: $(seconds "$start" "$end") s)"

cp /usr/share/cugrade/graders/vecadd/solutions/good/lecture_style.cu mine/vecadd.cu
start=$(now)
status=0
cugrade check vecadd --submission mine --backend cpu --fail-under 100% \
  --report json=good.json > good.txt 2>&1 || status=$?
end=$(now)
[ "$status" -eq 0 ] || { cat good.txt; fail "a known-good solution's check exited $status"; }
echo "ok: a known-good solution passes ($(seconds "$start" "$end") s for its check)"

# A TA's batch from any folder: two students, one right, one with the template.
mkdir -p class/alice class/bob
cp mine/vecadd.cu class/alice/vecadd.cu
cp /usr/share/cugrade/templates/vecadd/vecadd.cu class/bob/vecadd.cu
status=0
cugrade grade vecadd --submissions class --out grades --backend cpu > grade.txt 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat grade.txt; fail "cugrade grade exited $status"; }
for student in alice bob; do
  grep -q "^$student," grades/gradebook.csv || { cat grades/gradebook.csv; fail "the gradebook lacks $student"; }
done
echo "ok: cugrade grade of a class of two"
# The bench is GPU only: without one it says so (exit 1), with its files found.
status=0
cugrade bench vecadd > bench.txt 2>&1 || status=$?
if [ "$status" -ne 1 ] || ! grep -qi 'GPU' bench.txt; then cat bench.txt; fail "cugrade bench without a GPU exited $status"; fi
echo "ok: cugrade bench says it needs a GPU: $(head -1 bench.txt)"

status=0
cugrade selftest vecadd --backend cpu > selftest.txt 2>&1 || status=$?
tail -5 selftest.txt
[ "$status" -eq 0 ] || { cat selftest.txt; fail "cugrade selftest vecadd --backend cpu exited $status"; }
echo "ok: cugrade selftest vecadd --backend cpu"

# The ways a course installs the package, with a local file standing in for the release download:
# Gradescope's setup.sh and run_autograder, then the student workflow's install and grade steps.
# Each starts from the package removed (dpkg takes every file of it away).
deb=$(ls /root/cugrade_*_amd64.deb)
sha=$(sha256sum "$deb" | cut -d' ' -f1)
remove_package() {
  DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq cugrade > /dev/null
  for path in /usr/bin/cugrade /usr/share/cugrade /usr/lib/cugrade; do
    [ ! -e "$path" ] || fail "$path is left after apt-get purge cugrade"
  done
}

# Gradescope's files as a course copies them into its zip: the package's own.
cp -r /usr/share/cugrade/templates/gradescope /root/gradescope
remove_package
gradescope=/home/gradescope
mkdir -p "$gradescope/source" "$gradescope/submission"
cp /root/gradescope/setup.sh /root/gradescope/run_autograder "$gradescope/source/"
sed -e "s|^ASSIGNMENT=.*|ASSIGNMENT=vecadd|" -e "s|^CUGRADE_PACKAGE_URL=.*|CUGRADE_PACKAGE_URL=file://$deb|" \
    -e "s|^CUGRADE_PACKAGE_SHA256=.*|CUGRADE_PACKAGE_SHA256=$sha|" /root/gradescope/autograder.env > "$gradescope/source/autograder.env"
CUGRADE_AUTOGRADER_ROOT="$gradescope" bash "$gradescope/source/setup.sh" > setup.txt 2>&1 ||
  { cat setup.txt; fail "Gradescope's setup.sh could not install the package"; }
[ -x /usr/bin/cugrade ] || fail "setup.sh did not install cugrade"
cp mine/vecadd.cu "$gradescope/submission/vecadd.cu"
(cd "$gradescope" && CUGRADE_AUTOGRADER_ROOT="$gradescope" bash source/run_autograder > run.txt 2>&1) ||
  { cat "$gradescope/run.txt"; fail "run_autograder failed with the package"; }
grep -q '"status": "failed"' "$gradescope/results/results.json" && fail "a known-good solution failed on Gradescope's path"
grep -q '"score"' "$gradescope/results/results.json" || fail "run_autograder wrote no score"
echo "ok: Gradescope's setup.sh installs the package (SHA-256 checked) and run_autograder grades with it"

remove_package
# The workflow as init writes it: cugrade unpacked from the package into a folder of its own
# (not installed) finds its template beside itself.
dpkg-deb -x "$deb" /root/extracted
/root/extracted/usr/bin/cugrade init vecadd student --package-url "file://$deb" \
  --package-sha256 "$sha" > init-package.txt || fail "init with the package failed: $(cat init-package.txt)"
workflow=student/.github/workflows/cugrade.yml
bash /root/workflow_step.sh "$workflow" "Install the course's cugrade package" > install_step.sh
[ -s install_step.sh ] || fail "no install step in $workflow"
: > github_env
PACKAGE_URL="file://$deb" PACKAGE_SHA256="$sha" RUNNER_TEMP=/tmp GITHUB_ENV="$PWD/github_env" bash install_step.sh > step.txt 2>&1 ||
  { cat step.txt; fail "the workflow's install step failed"; }
grep -q '^CUGRADE=/usr/bin/cugrade$' github_env || fail "the install step did not name the installed cugrade"
cp mine/vecadd.cu student/vecadd.cu
bash /root/workflow_step.sh "$workflow" "Grade" > grade_step.sh
status=0
(cd student && CUGRADE=/usr/bin/cugrade ASSIGNMENT=vecadd SUBMISSION=vecadd.cu BACKEND=cpu FAIL_UNDER=100% \
  GITHUB_STEP_SUMMARY="$PWD/summary.md" bash ../grade_step.sh > ../grade.txt 2>&1) || status=$?
[ "$status" -eq 0 ] || { cat grade.txt; fail "the workflow's grade step exited $status with the package"; }
grep -q '"outcome": "passed"' student/cugrade-report.json || fail "the workflow's report is not a pass"
echo "ok: the student workflow installs the package (SHA-256 checked) and grades with it"
