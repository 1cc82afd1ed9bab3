# Where scripts/install puts each file under PREFIX, and so what scripts/uninstall removes:
# the conventional places where the shells, man and PATH look by themselves.
# Source it after setting prefix.

installed_binary="$prefix/bin/ftsearch"
# The server `ftsearch serve` runs: beside ftsearch, where it looks for it.
installed_server="$prefix/bin/ftsearch-server"
installed_manual="$prefix/share/man/man1/ftsearch.1"
installed_bash_completion="$prefix/share/bash-completion/completions/ftsearch"
installed_zsh_completion="$prefix/share/zsh/site-functions/_ftsearch"
installed_fish_completion="$prefix/share/fish/vendor_completions.d/ftsearch.fish"
installed_files=(
    "$installed_binary" "$installed_server" "$installed_manual"
    "$installed_bash_completion" "$installed_zsh_completion" "$installed_fish_completion"
)
