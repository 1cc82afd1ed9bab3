# Sourced by scripts/test: the release binary, linked as scripts/install links it (on Linux one
# static executable, see Package.swift), must answer as the debug build the tests ran does.
check_release_binary() {
    local release=$1 debug=$2 work code binary
    work=$(mktemp -d)
    for binary in "$release" "$debug"; do
        mkdir "$work/$(basename "$(dirname "$binary")")"
    done
    run_both() { # OUTPUT-NAME ARGUMENTS...
        local name=$1 side
        shift
        for binary in "$release" "$debug"; do
            side="$work/$(basename "$(dirname "$binary")")"
            code=0
            FTSEARCH_DB="$side.sqlite" "$binary" "$@" >"$side/$name" 2>&1 || code=$?
            echo "exit $code" >>"$side/$name"
        done
    }
    run_both import import Fixtures/people.json Fixtures/animals.json --quiet
    run_both query query ann
    run_both json query müller --format json --match fuzzy
    run_both none query zzzzzz --count
    run_both suggest suggest an
    run_both check check
    run_both typo quary ann
    run_both help query --help
    if ! diff -r "$work/release" "$work/debug" >&2; then
        echo "the release binary answers differently from the debug build" >&2
        rm -rf "$work"
        return 1
    fi
    rm -rf "$work"
    echo "release binary ($(file -b "$release" | cut -d, -f1,4)): answers as the debug build: ok"
}
