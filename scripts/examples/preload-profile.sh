#!/bin/sh
# Standalone (LD_PRELOAD) mode for a terminal profile that can only set the
# environment and the shell: the shim applies the policy in the shell's first
# process, with the current directory as the project and the config found as
# usual ($CORDON_CONFIG, ~/.config/cordon/config.json, built-in defaults).
# Started in ~ (or above it, or in a system directory) there is no writable
# project, and the shell keeps it that way whatever it cd's into: start the
# profile in the project directory.
# Use as the profile's command:   scripts/examples/preload-profile.sh
# No session tracking in this mode: processes are not killed at the end.
shim=${CORDON_SHIM:-/usr/local/lib/libcordon.so}
exec env LD_PRELOAD="$shim" "${SHELL:-/bin/bash}" -l
