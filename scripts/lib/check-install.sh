# Sourced by scripts/test: installs into a throwaway prefix (a debug build, the one the tests
# use), checks every file is there, the binary runs and the man page renders without a warning,
# then uninstalls and checks the prefix is exactly as it was.
check_install() {
    local prefix listing warnings
    prefix=$(mktemp -d)
    mkdir -p "$prefix/bin" "$prefix/share/man/man1"   # what a prefix already holds must stay
    touch "$prefix/bin/another-tool" "$prefix/share/man/man1/another-tool.1"
    listing=$(cd "$prefix" && find . | sort)
    scripts/install "$prefix" --debug >/dev/null 2>&1 || { echo "scripts/install failed" >&2; return 1; }
    scripts/install "$prefix" --debug >/dev/null 2>&1 || { echo "scripts/install is not idempotent" >&2; return 1; }
    (prefix=$prefix; . scripts/lib/install-layout.sh
     for file in "${installed_files[@]}"; do
         [ -s "$file" ] || { echo "install: $file is missing" >&2; exit 1; }
     done
     "$installed_binary" --version >/dev/null
     "$installed_server" --help | grep -q 'USAGE: ftsearch-server'
     # serve runs the server beside it, which reports the missing database (66, EX_NOINPUT).
     code=0; "$installed_binary" serve --read-only --port 0 --db "$prefix/none.sqlite" 2>/dev/null || code=$?
     [ "$code" = 66 ] || { echo "install: ftsearch serve did not run ftsearch-server ($code)" >&2; exit 1; }
     grep -q 'Nm ftsearch' "$installed_manual"
     grep -q 'complete -o filenames -F _ftsearch ftsearch' "$installed_bash_completion"
     grep -q '#compdef ftsearch' "$installed_zsh_completion"
     grep -q "complete -c 'ftsearch'" "$installed_fish_completion") || return 1
    warnings=$( (LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/ftsearch.1" >/dev/null) 2>&1)
    [ -z "$warnings" ] || { printf 'man page warnings:\n%s\n' "$warnings" >&2; return 1; }
    scripts/uninstall "$prefix" >/dev/null
    scripts/uninstall "$prefix" >/dev/null
    [ "$(cd "$prefix" && find . | sort)" = "$listing" ] || { echo "uninstall left the prefix changed" >&2; return 1; }
    rm -rf "$prefix"
    echo "scripts/install and scripts/uninstall: files, man page without warnings, prefix restored: ok"
}
