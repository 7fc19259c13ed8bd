# Sourced by the shell scripts that describe themselves in their opening comment (repeat-tests.sh, build-times.sh, postgres.sh),
# before they change folder: the script's own path is taken now.
#
# usage STATUS
#   Prints the script's opening comment (its lines after the first, up to the first line that is not a comment)
#   and exits with STATUS: 0 for --help on standard output, anything else on standard error.
usage_script=$(realpath "$0")

usage() {
    if (($1)); then exec >&2; fi
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$usage_script"
    exit "$1"
}
