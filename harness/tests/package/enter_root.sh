#!/usr/bin/env bash
# enter_root.sh ROOT COMMAND...: runs COMMAND inside the Debian root ROOT with nothing of the host's
# files in reach: in mount, PID, IPC and UTS namespaces of its own (unshare), the root made the
# whole filesystem (pivot_root, the host's tree unmounted), a fresh /proc of its own PIDs, and
# the root's own /dev nodes (debootstrap made them). The network stays (apt). Why pivot_root and
# not chroot: in a chroot, bubblewrap (cugrade's sandbox) cannot make its namespaces (the kernel
# refuses a user namespace to a chrooted process, and / is no mount point there).
set -euo pipefail
root=$(cd "$1" && pwd)
shift
# shellcheck disable=SC2016  # the inner script expands its own arguments
exec unshare --mount --pid --fork --ipc --uts -- bash -c '
  set -euo pipefail
  root=$1; shift
  mount --make-rprivate /
  mount --bind "$root" "$root"
  cd "$root"
  mkdir -p .host
  pivot_root . .host
  cd /
  mount -t proc proc /proc
  mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts 2>/dev/null || true  # dpkg logs through a pty
  umount -l /.host
  rmdir /.host
  exec /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
' enter_root "$root" "$@"
