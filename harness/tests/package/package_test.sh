#!/usr/bin/env bash
# package_test.sh SOURCE_ROOT BUILD_DIR: the Debian package alone is enough. Builds the package
# (CPack), installs it with apt into a fresh Debian 12 root (debootstrap, made once per build
# folder and kept as a tarball, unpacked afresh on every run), and there, with no file of the
# source or build tree reachable, runs `cugrade doctor`, `cugrade init vecadd` and `cugrade check`
# of the template (it must fail) and of a known-good solution (it must pass), and `cugrade
# selftest vecadd --backend cpu`. Also: lintian reports no error on the .deb, and every file under
# cugrade's folders is the package's (dpkg -L). Exit 77 (Skipped, with the reason) where it
# cannot run: not root, no debootstrap or lintian (scripts/install-deps.sh --test-tools), or
# deb.debian.org out of reach.
#
# The root is entered by enter_root.sh (its own mount namespace, the root made the whole
# filesystem by pivot_root, a fresh /proc), so the source and build trees are not there at all.
# cugrade's own sandbox (bubblewrap) runs inside it; where the host forbids that, the checks
# grade unsealed and the test says so (never silently).
set -euo pipefail
source_root=$1 build_dir=$2
here=$(cd "$(dirname "$0")" && pwd)
work="$build_dir/package-test"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, and apt-get inside the root)"
for tool in debootstrap lintian unshare pivot_root dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || skip "no $tool (scripts/install-deps.sh --test-tools installs it)"
done
unshare --mount --pid --fork --ipc --uts true 2>/dev/null ||
  skip "cannot make mount and PID namespaces here (a container without CAP_SYS_ADMIN: docker run --privileged)"
mkdir -p "$work"
test_start=$(now)

# 1. The package, as scripts/package.sh makes it (the tests are not in it).
echo "== building the package"
cmake --build "$build_dir" --target grading >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "the package's targets do not build"; }
rm -rf "$work/deb" && mkdir -p "$work/deb"
(cd "$work/deb" && cpack --config "$build_dir/CPackConfig.cmake" -G DEB) >"$work/cpack.log" 2>&1 ||
  { tail -30 "$work/cpack.log"; fail "cpack failed"; }
deb=$(find "$work/deb" -maxdepth 1 -name 'cugrade_*_amd64.deb' | head -1)
[ -n "$deb" ] || fail "cpack wrote no cugrade_*_amd64.deb: $(ls "$work/deb")"
depends=$(dpkg-deb -f "$deb" Depends)
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1)); Depends: $depends"
# The CUDA toolkit is not in Debian main: nothing of it may become a dependency (cugrade-calibrate
# links cuBLAS; cmake/package.cmake).
if echo "$depends" | grep -qiE 'cuda|cublas|nvidia'; then fail "the package depends on the CUDA toolkit: $depends"; fi
for needed in bubblewrap g++ binutils libyaml-cpp; do
  echo "$depends" | grep -q "$needed" || fail "the package does not depend on $needed: $depends"
done

# 2. lintian: no error (warnings are listed, not failed on).
echo "== lintian"
lintian --tag-display-limit 0 "$deb" >"$work/lintian.log" 2>&1 || true
cat "$work/lintian.log"
if grep -q '^E: ' "$work/lintian.log"; then fail "lintian reports errors on $(basename "$deb")"; fi

# 3. A fresh Debian 12 root: debootstrap once per build folder, a fresh copy every run.
tarball="$work/bookworm-minbase.tar"
if [ ! -f "$tarball" ]; then
  echo "== debootstrap bookworm (once for this build folder)"
  rm -rf "$work/bootstrap"
  debootstrap --variant=minbase bookworm "$work/bootstrap" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -5 "$work/debootstrap.log"; rm -rf "$work/bootstrap"; skip "debootstrap could not make a Debian 12 root (is deb.debian.org reachable?)"; }
  tar -C "$work/bootstrap" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
  rm -rf "$work/bootstrap"
fi
root="$work/root"
rm -rf "$root" && mkdir -p "$root"
tar -C "$root" -xf "$tarball"
cp "$deb" "$root/root/"
# The test's own scripts (not cugrade's files): what runs inside, and the workflow step extractor.
cp "$here/inside_root.sh" "$source_root/harness/tests/ci/workflow_step.sh" "$root/root/"

# In the root: nothing of the host's files in reach (enter_root.sh).
in_root() { "$here/enter_root.sh" "$root" "$@"; }

echo "== apt-get install ./$(basename "$deb") in the fresh root"
update_start=$(now)
in_root apt-get update -qq >"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log"; fail "apt-get update failed in the root"; }
install_start=$(now)
in_root sh -c "cd /root && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./$(basename "$deb")" \
  >>"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log"; fail "apt-get could not install the package in a fresh Debian 12 root"; }
install_end=$(now)
echo "apt-get update: $(seconds "$update_start" "$install_start") s; apt-get install ./$(basename "$deb"):" \
     "$(seconds "$install_start" "$install_end") s ($(grep -c '^Setting up' "$work/apt.log" || true) packages set up," \
     "the dependencies downloaded from deb.debian.org)"

echo "== cugrade in the root (no source or build tree there)"
status=0
in_root sh -c "cd /root && SOURCE_ROOT='$source_root' BUILD_DIR='$build_dir' bash /root/inside_root.sh" || status=$?
end=$(now)
echo "the whole test: $(seconds "$test_start" "$end") s"
[ "$status" -eq 0 ] || fail "cugrade from the package failed in the fresh root (above)"
rm -rf "$root"
echo "ok: the package installs in a fresh Debian 12 root and grades there"
