#!/bin/sh
# Make a GNOME Terminal profile run cordon instead of the shell (Preferences >
# Profile > Command > "Run a custom command instead of my shell" does the same).
# Usage: scripts/examples/gnome-terminal.sh [PROFILE-UUID] (default: the default profile)
set -eu
uuid=${1:-$(gsettings get org.gnome.Terminal.ProfilesList default | tr -d "'")}
path="org.gnome.Terminal.Legacy.Profile:/org/gnome/terminal/legacy/profiles:/:$uuid/"
gsettings set "$path" use-custom-command true
gsettings set "$path" custom-command 'cordon run'
echo "profile $uuid now runs: cordon run"
