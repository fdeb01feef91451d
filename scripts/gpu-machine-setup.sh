#!/usr/bin/env bash
# Builds and runs cugrade on a GPU machine that has the CUDA toolkit (nvcc, compute-sanitizer, ncu),
# CMake, ninja and a C++ compiler but none of cugrade's other build dependencies, and no network:
# the Debian 12 packages are fetched on a machine that has Debian's archive, carried over, and
# unpacked into a prefix of their own (never into /), which CMake, pkg-config, the loader and the
# PATH are then pointed at.
#
#   scripts/gpu-machine-setup.sh --download DIR   on a Debian 12 machine: the packages into DIR
#                                                 (DIR/fallback: libraries and pkg-config that the
#                                                 GPU machine may already have)
#   source scripts/gpu-machine-setup.sh DIR [PREFIX]
#                                                 on the GPU machine: DIR's packages unpacked into
#                                                 PREFIX (default /opt/cugrade-deps), a fallback
#                                                 one only where the machine lacks what it holds;
#                                                 exports CMAKE_PREFIX_PATH, PKG_CONFIG_PATH,
#                                                 LD_LIBRARY_PATH and PATH (with /usr/local/cuda/bin)
#
# Then, for example:
#   cmake --preset gpu -B /tmp/build -DCMAKE_CUDA_ARCHITECTURES=native && cmake --build /tmp/build
packages=(doctest-dev libyaml-cpp-dev libyaml-cpp0.7 libboost-dev libboost1.74-dev libboost-filesystem-dev
          libboost-filesystem1.74-dev libboost-filesystem1.74.0 libboost-context-dev libboost-context1.74-dev
          libboost-context1.74.0 libboost-atomic1.74.0 libboost-atomic1.74-dev libboost-system1.74-dev
          libboost-system1.74.0 libcli11-dev libfmt-dev libfmt9 nlohmann-json3-dev libarchive-dev libarchive13
          nettle-dev libnettle8 libhogweed6 libgmp10 libgmp-dev libb2-1 bubblewrap zip)
fallback=(libxml2 libicu72 liblz4-1 libzstd1 liblzma5 libacl1 libbz2-1.0 pkgconf-bin pkgconf libpkgconf3 pkg-config)

if [ "${1:-}" = --download ]; then
  [ $# -eq 2 ] || { sed -n '8,9p' "$0" >&2; exit 1; }
  mkdir -p "$2/fallback"
  (cd "$2" && apt-get download "${packages[@]}") && (cd "$2/fallback" && apt-get download "${fallback[@]}")
  exit
fi

# Sourced from here on: no `exit`, no `set -e` left behind in the caller's shell.
gpu_setup() {
  local debs=$1 prefix=${2:-/opt/cugrade-deps}
  [ -d "$debs" ] || { echo "gpu-machine-setup: no folder $debs" >&2; return 1; }
  mkdir -p "$prefix"
  local deb
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$prefix" || return 1; done
  # A fallback package only where the machine has none of the libraries it holds (its own are
  # newer, and a library unpacked here would shadow them for every program run from this shell).
  for deb in "$debs"/fallback/*.deb; do
    [ -e "$deb" ] || continue
    local needed=false lib
    for lib in $(dpkg -c "$deb" | awk '{print $NF}' | grep -E '/lib[^/]*\.so\.[0-9]+$' | xargs -r -n1 basename); do
      ldconfig -p | grep -q "^[[:space:]]*$lib " || needed=true
    done
    case $(basename "$deb") in pkg*) command -v pkg-config > /dev/null || needed=true ;; esac
    if $needed; then dpkg -x "$deb" "$prefix" || return 1; echo "gpu-machine-setup: unpacked $(basename "$deb")"; fi
  done
  # The packages' pkg-config files name /usr as their prefix.
  local pc
  for pc in "$prefix"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc "$prefix"/usr/share/pkgconfig/*.pc; do
    [ -e "$pc" ] && sed -i "s|^prefix=/usr\$|prefix=$prefix/usr|" "$pc"
  done
  export CMAKE_PREFIX_PATH=$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
  export PKG_CONFIG_PATH=$prefix/usr/lib/x86_64-linux-gnu/pkgconfig:$prefix/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$prefix/usr/bin:/usr/local/cuda/bin:$PATH
  if [ -e "$prefix/usr/lib/x86_64-linux-gnu/libarchive.so.13" ] &&
     ldd "$prefix/usr/lib/x86_64-linux-gnu/libarchive.so.13" | grep -q "not found"; then
    echo "gpu-machine-setup: libarchive lacks: $(ldd "$prefix/usr/lib/x86_64-linux-gnu/libarchive.so.13" | grep "not found" | tr -s ' \n' ' ')" >&2
  fi
  echo "gpu-machine-setup: $(find "$debs" -maxdepth 1 -name "*.deb" | wc -l) packages in $prefix; nvcc $(command -v nvcc || echo missing), bwrap $(command -v bwrap || echo missing)"
}
gpu_setup "$@"
