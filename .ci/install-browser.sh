#!/usr/bin/env bash
# Installs the browser that tests render report.html in (tests/test_report_browser.py):
# Debian's chromium package, run headless. Idempotent, like install-judges.sh: what is already
# installed is left alone, and the package lists are refreshed only when apt does not know
# chromium or the install fails with old lists. Runs as root (as CI and the development machines do).
set -euo pipefail

source "$(dirname "$0")/debian.sh"
debian_install install-browser chromium fonts-dejavu-core

# It must answer, or the browser tests would fail later, less clearly.
chromium --headless --no-sandbox --version 2>/dev/null || chromium --version
