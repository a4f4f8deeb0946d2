#!/bin/sh
# An agent's "run this command" tool: each command is its own cordon session
# of kind "tool" (matched against apply_to), in the project, offline.
# Usage: scripts/examples/agent-tool.sh PROJECT-DIR 'COMMAND LINE'
# Exit status: the command's own; 125 if cordon refused (nothing ran).
set -eu
project=$1
shift
exec cordon run --kind tool --project "$project" --no-network -- /bin/sh -c "$*"
