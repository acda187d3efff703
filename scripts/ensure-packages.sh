#!/bin/sh
# Makes sure Debian packages are installed: installs the missing ones when
# running as root with apt-get, otherwise prints the one command needed.
# usage: ensure-packages.sh [--optional] PACKAGE...
#   --optional: a package that cannot be installed is reported, not fatal.
# GS_NO_INSTALL=1 never installs (machines without a package mirror).
optional=0
if [ "$1" = "--optional" ]; then optional=1; shift; fi
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ "${GS_NO_INSTALL:-0}" != 1 ]; then
    echo "gemmscope: installing$missing"
    if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null 2>&1; then
        exit 0
    fi
    echo "gemmscope: could not install$missing"
fi
if [ "$optional" = 1 ]; then
    echo "gemmscope: optional packages missing:$missing (sudo apt-get install -y$missing)"
    exit 0
fi
echo "gemmscope: missing packages. Run: sudo apt-get install -y$missing"
exit 1
