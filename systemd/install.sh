#!/usr/bin/env bash
# Install the Infinite Table Companion as a kiosk on a Raspberry Pi OS (Bookworm) card:
# system packages, the "companion" user in the gpio/video/render/input/dialout groups, the
# app in /opt/infinite-companion/.venv, the systemd unit, the NFC bridge's udev rule, and a
# console boot (no desktop). Safe to run again. See docs/pi-install.md.
#
#   sudo systemd/install.sh                # install from this checkout and start the kiosk
#   systemd/install.sh --root /tmp/stage   # only lay the files out under a staging root
#   systemd/install.sh --dry-run           # print what would be done, change nothing
#
# It ends by checking the installed app: the venv imports the app, gpiozero and the NFC
# bridge, and (with the Pi packages) Picamera2, grabbing one frame when a camera is attached.
# Run again after `git pull` to update: a running kiosk is restarted on the new code.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(dirname "$here")
root=""
prefix=/opt/infinite-companion
user=companion
dry_run=0
start=1
pi_packages=auto
groups=(gpio video render input dialout)

usage() {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --root DIR --prefix DIR --user NAME --dry-run --no-start"
  echo "         --pi-packages (install the Raspberry Pi OS packages even off a Pi)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=${2:?--root needs a directory}; shift 2 ;;
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --user) user=${2:?--user needs a name}; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    --no-start) start=0; shift ;;
    --pi-packages) pi_packages=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

log() { printf '[install] %s\n' "$*" >&2; }
run() {
  if [ "$dry_run" -eq 1 ]; then printf '+ %s\n' "$*"; else "$@"; fi
}
# Commands that change the running system: skipped when laying files out under --root.
system() {
  if [ -n "$root" ]; then printf 'skipped (staging root): %s\n' "$*" >&2; else run "$@"; fi
}

if [ -z "$root" ] && [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo), or use --root DIR / --dry-run" >&2
  exit 1
fi

unit_dir=$root/etc/systemd/system
rules_dir=$root/etc/udev/rules.d
state_dir=/var/lib/infinite-companion

# 1. System packages: the libraries Kivy's SDL2 wheel loads for KMS/DRM and GLES, Picamera2
#    (only packaged by Raspberry Pi OS), and the venv tools.
packages=(python3-venv python3-dev libgl1 libegl1 libgles2 libgbm1 libdrm2 libmtdev1
          libinput10 fonts-dejavu-core)
if [ "$pi_packages" = auto ] && [ -r /proc/device-tree/model ] &&
   grep -qi "raspberry pi" /proc/device-tree/model; then
  pi_packages=yes
fi
if [ "$pi_packages" = yes ]; then
  packages+=(python3-picamera2 python3-lgpio)
fi
log "system packages: ${packages[*]}"
system apt-get update -qq
system env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${packages[@]}"

# 2. The unprivileged user and its groups (groups missing on this system are created).
for group in "${groups[@]}"; do
  if ! getent group "$group" >/dev/null; then system groupadd --system "$group"; fi
done
if ! getent passwd "$user" >/dev/null; then
  log "creating the system user $user"
  system useradd --system --home-dir "$state_dir" --no-create-home --shell /usr/sbin/nologin \
    --user-group "$user"
fi
system usermod --append --groups "$(IFS=,; echo "${groups[*]}")" "$user"

# 3. The app: a copy of this checkout and a virtual environment with the [pi] extras.
#    --system-site-packages lets the venv import Picamera2 and lgpio from apt.
log "installing the app into $root$prefix"
run mkdir -p "$root$prefix"
if [ "$source_dir" != "$root$prefix" ]; then
  # --no-same-owner: the files belong to whoever installs (root), not to the login user who
  # cloned the checkout; the service user may read them but never change its own code.
  run tar -C "$source_dir" --exclude=.venv --exclude=node_modules --exclude=.git \
    --exclude=artifacts --exclude=__pycache__ --exclude='*.egg-info' -cf - . | \
    { if [ "$dry_run" -eq 1 ]; then cat >/dev/null
      else tar -C "$root$prefix" --no-same-owner -xf -; fi; }
fi
if [ "$(id -u)" -eq 0 ]; then
  run chown -R root:root "$root$prefix"
fi
system python3 -m venv --system-site-packages "$prefix/.venv"
system "$prefix/.venv/bin/python" -m pip install -q --upgrade pip
extras=pi
system "$prefix/.venv/bin/python" -m pip install -q "${prefix}[${extras}]"

# 4. The unit (paths adjusted to --prefix) and the NFC bridge's udev rule.
run mkdir -p "$unit_dir" "$rules_dir"
if [ "$dry_run" -eq 1 ]; then
  printf '+ install unit %s/infinite-companion.service\n' "$unit_dir"
else
  sed -e "s#/opt/infinite-companion#$prefix#g" -e "s#^User=companion#User=$user#" \
      -e "s#^Group=companion#Group=$user#" \
      "$here/infinite-companion.service" > "$unit_dir/infinite-companion.service"
  chmod 0644 "$unit_dir/infinite-companion.service"
fi
if [ -f "$here/99-infinite-bridge.rules" ]; then
  run install -m 0644 "$here/99-infinite-bridge.rules" "$rules_dir/99-infinite-bridge.rules"
  if [ -z "$root" ] && [ "$dry_run" -eq 0 ] && ! udevadm control --ping 2>/dev/null; then
    log "udev is not running (an image or a chroot): the rule applies from the next boot"
  else
    system udevadm control --reload-rules
    system udevadm trigger --subsystem-match=tty
  fi
else
  log "no udev rule for the NFC bridge in $here (99-infinite-bridge.rules); skipped"
fi

# 5. Boot to the console (no desktop) and start the kiosk.
if command -v raspi-config >/dev/null; then
  system raspi-config nonint do_boot_behaviour B1
fi
system systemctl set-default multi-user.target
# Is systemd running here, and the kiosk with it? (SYSTEMD_RUN_DIR: tests point it elsewhere.)
if [ -n "$root" ]; then
  service=stopped
elif [ ! -d "${SYSTEMD_RUN_DIR:-/run/systemd/system}" ]; then
  service=no-systemd
elif systemctl is-active --quiet infinite-companion.service; then
  service=running
else
  service=stopped
fi
case "$service" in
  no-systemd)
    # An image being prepared, or a chroot: enabled for the next boot; nothing runs yet.
    log "systemd is not running here: the kiosk is enabled and starts at the next boot"
    system systemctl enable infinite-companion.service ;;
  running)
    # An update: the running kiosk must not keep the old code (its game resumes on restart).
    log "restarting the running kiosk on the new code"
    system systemctl daemon-reload
    system systemctl enable infinite-companion.service
    system systemctl restart infinite-companion.service ;;
  *)
    system systemctl daemon-reload
    if [ "$start" -eq 1 ]; then
      system systemctl enable --now infinite-companion.service
    else
      system systemctl enable infinite-companion.service
    fi ;;
esac

# 6. Check what was installed: the app, GPIO through lgpio, the NFC bridge and the camera.
if [ -z "$root" ] && [ "$dry_run" -eq 0 ]; then
  log "checking the installed app"
  check=("$prefix/.venv/bin/python" -m companion.install_check)
  if [ "$pi_packages" = yes ]; then check+=(--camera); fi
  "${check[@]}"
fi
log "done: journalctl -u infinite-companion -f to watch it"
