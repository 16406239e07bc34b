# Sourced by the install scripts: installs Debian packages once, idempotently.
# debian_install WHO PACKAGE... leaves PACKAGE alone when dpkg has it (the first one is checked),
# refreshes the package lists only when apt does not know it or the install fails with old lists.

debian_install() {
    local who="$1" package="$2"
    shift
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        echo "$who: Debian $package already installed"
        return
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-cache show "$package" >/dev/null 2>&1; then
        apt-get update
    fi
    if ! apt-get install -y --no-install-recommends "$@"; then
        apt-get update
        apt-get install -y --no-install-recommends "$@"
    fi
}
