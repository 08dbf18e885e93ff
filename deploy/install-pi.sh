#!/usr/bin/env bash
# Install Cluster Companion on Raspberry Pi OS (Bookworm) and start it at boot.
#
#   sudo deploy/install-pi.sh            # from a checkout of the project
#   DRY_RUN=1 deploy/install-pi.sh       # print what it would do, change nothing
#
# It installs the apt packages (camera, GPIO), makes a user `companion` in the gpio, video and
# dialout groups, a virtual environment with the system site packages (so the apt-installed
# picamera2 and lgpio import) in /opt/cluster-companion/venv with the project in it, keeping
# apt's numpy (which picamera2 and simplejpeg are built against; see deploy/pi-constraints.txt),
# a default configuration in /etc/cluster-companion/ (kept if already there), and the systemd
# unit cluster-companion.service, enabled and started. Running it again upgrades the project.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${PREFIX:-/opt/cluster-companion}"
CONFIG_DIR="${CONFIG_DIR:-/etc/cluster-companion}"
DATA_DIR="${DATA_DIR:-/var/lib/cluster-companion}"
SERVICE_USER="${SERVICE_USER:-companion}"
UNIT_DIR="${UNIT_DIR:-/etc/systemd/system}"
DRY_RUN="${DRY_RUN:-}"
CONSTRAINTS="$PREFIX/constraints.txt"

APT_PACKAGES=(
    python3 python3-venv python3-pip
    python3-picamera2 python3-libcamera libcamera-apps
    python3-lgpio python3-rpi-lgpio
    python3-serial
)
GROUPS_WANTED=(gpio video dialout)

say() { printf 'install-pi: %s\n' "$*"; }
fail() { printf 'install-pi: error: %s\n' "$*" >&2; exit 1; }

# Run a command, or only show it with DRY_RUN=1.
run() {
    if [[ -n "$DRY_RUN" ]]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

check_system() {
    [[ -f "$SOURCE/pyproject.toml" ]] || fail "run me from a checkout: no pyproject.toml in $SOURCE"
    if [[ -z "$DRY_RUN" && "$(id -u)" -ne 0 ]]; then
        fail "run me as root: sudo $0"
    fi
    local codename=""
    if [[ -r /etc/os-release ]]; then
        # shellcheck source=/dev/null
        codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")"
    fi
    if [[ "$codename" != "bookworm" ]]; then
        say "warning: this is '${codename:-unknown}', not Raspberry Pi OS Bookworm; carrying on"
    fi
}

install_packages() {
    say "installing apt packages: ${APT_PACKAGES[*]}"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${APT_PACKAGES[@]}"
}

make_user() {
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists"
    else
        say "making the system user $SERVICE_USER"
        run useradd --system --home-dir "$DATA_DIR" --shell /usr/sbin/nologin \
            --user-group "$SERVICE_USER"
    fi
    local group
    for group in "${GROUPS_WANTED[@]}"; do
        if getent group "$group" >/dev/null; then
            run usermod --append --groups "$group" "$SERVICE_USER"
        else
            say "warning: no group $group on this system; $SERVICE_USER is not added to it"
        fi
    done
}

# The version of the numpy the system's python3 imports, which the venv sees too: on Raspberry
# Pi OS apt's python3-numpy, a dependency of python3-picamera2.
system_numpy() {
    python3 -s -c 'import numpy; print(numpy.__version__)' 2>/dev/null
}

# pip's constraints: deploy/pi-constraints.txt with the numpy pin set to apt's numpy, so that pip
# never puts another numpy (numpy 2) in the venv over the one picamera2 and simplejpeg need.
write_constraints() {
    local numpy made
    if ! numpy="$(system_numpy)"; then
        [[ -n "$DRY_RUN" ]] || fail "python3 cannot import numpy: is python3-numpy installed?"
        numpy="$(sed -n 's/^numpy==//p' "$SOURCE/deploy/pi-constraints.txt")"
        say "(dry run: no numpy here; taking Raspberry Pi OS Bookworm's)"
    fi
    say "keeping the system's numpy $numpy in the venv (constraints: $CONSTRAINTS)"
    made="$(mktemp)"
    sed "s/^numpy==.*/numpy==$numpy/" "$SOURCE/deploy/pi-constraints.txt" >"$made"
    if [[ -n "$DRY_RUN" ]]; then
        grep -v '^#' "$made" | sed 's/^/    /'
    fi
    run install -m 0644 "$made" "$CONSTRAINTS"
    rm -f "$made"
}

# An earlier install may have put a numpy of its own in the venv (numpy 2, over apt's): remove it,
# so that apt's is the one imported again.
remove_venv_numpy() {
    local own
    own="$("$PREFIX/venv/bin/python" -c \
        'import numpy, sys; print(numpy.__file__.startswith(sys.prefix + "/"))' 2>/dev/null || true)"
    if [[ "$own" == "True" ]]; then
        say "removing the venv's own numpy, which shadows apt's"
        run "$PREFIX/venv/bin/python" -m pip uninstall --yes numpy
    fi
}

install_project() {
    say "installing the project into $PREFIX/venv"
    run mkdir -p "$PREFIX"
    if [[ ! -x "$PREFIX/venv/bin/python" ]]; then
        run python3 -m venv --system-site-packages "$PREFIX/venv"
    fi
    write_constraints
    remove_venv_numpy
    run "$PREFIX/venv/bin/python" -m pip install --upgrade pip
    run "$PREFIX/venv/bin/python" -m pip install --upgrade --constraint "$CONSTRAINTS" "$SOURCE"
    run install -m 0644 "$SOURCE/README.md" "$PREFIX/README.md"
}

install_config() {
    run mkdir -p "$CONFIG_DIR"
    if [[ -e "$CONFIG_DIR/companion.toml" ]]; then
        say "keeping the configuration in $CONFIG_DIR/companion.toml"
    else
        say "writing the default configuration to $CONFIG_DIR/companion.toml"
        run install -m 0644 "$SOURCE/deploy/companion.toml" "$CONFIG_DIR/companion.toml"
    fi
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"
}

install_unit() {
    say "installing and starting cluster-companion.service"
    run install -m 0644 "$SOURCE/deploy/cluster-companion.service" \
        "$UNIT_DIR/cluster-companion.service"
    run systemctl daemon-reload
    run systemctl enable cluster-companion.service
    run systemctl restart cluster-companion.service
}

main() {
    check_system
    install_packages
    make_user
    install_project
    install_config
    install_unit
    say "done: see 'systemctl status cluster-companion' and 'journalctl -u cluster-companion'"
}

main "$@"
