#!/usr/bin/env bash
# Installs the browser that tests render report.html in (tests/test_report_browser.py):
# Debian's chromium package, run headless. Idempotent, like install-judges.sh: what is already
# installed is left alone, and the package lists are refreshed only when apt does not know
# chromium or the install fails with old lists. Runs as root (as CI and the development machines do).
set -euo pipefail

if dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
    echo "install-browser: Debian chromium already installed"
else
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-cache show chromium >/dev/null 2>&1; then
        apt-get update
    fi
    if ! apt-get install -y --no-install-recommends chromium fonts-dejavu-core; then
        apt-get update
        apt-get install -y --no-install-recommends chromium fonts-dejavu-core
    fi
fi

# It must answer, or the browser tests would fail later, less clearly.
chromium --headless --no-sandbox --version 2>/dev/null || chromium --version
