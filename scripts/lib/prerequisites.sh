# Shared by the scripts that build: makes sure the build can find SQLite and its packages.
# Source it; it installs libsqlite3-dev (and pkg-config) with apt when the header is missing and
# we are root, and otherwise says what to install.

# Installs Debian packages with apt-get, when we are root and have apt-get; returns 1 (installing
# nothing) otherwise, for the caller to say what is missing.
install_debian_packages() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    echo "Installing $*..." >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_sqlite_headers() {
    if [ -f /usr/include/sqlite3.h ] && command -v pkg-config >/dev/null 2>&1; then
        return 0
    fi
    if ! install_debian_packages libsqlite3-dev pkg-config; then
        echo "error: SQLite's development files are missing: install libsqlite3-dev (and pkg-config)." >&2
        exit 1
    fi
}

ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then
            export PATH="/opt/swift/usr/bin:$PATH"
        else
            echo "error: the Swift toolchain (6.x) is not on PATH." >&2
            exit 1
        fi
    fi
}

# Builds each PRODUCT in release as scripts/install installs it: the Swift runtime inside
# (--static-swift-stdlib, which starts every command in about half the time) and, on Linux,
# ftsearch as one static executable (FTSEARCH_STATIC_EXECUTABLE=1, see Package.swift). Run it
# from the package's folder; the build's output goes to standard error.
build_release() { # PRODUCT...
    local product
    for product in "$@"; do
        FTSEARCH_STATIC_EXECUTABLE=1 swift build -c release --static-swift-stdlib \
            --product "$product" >&2
    done
}

# Points SwiftPM at the package mirrors in ../shared/swiftpm when they exist (machines that reach
# no public git host); elsewhere Package.swift's public URLs resolve as usual.
use_package_mirrors() {
    use_package_mirrors_in "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
}

# The same for another checkout of the package (scripts/bench --before builds one).
use_package_mirrors_in() {
    local mirrors
    mirrors="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/../shared/swiftpm/use-mirrors"
    [ -x "$mirrors" ] || return 0
    "$mirrors" "$1"
}

# The shells, terminal and man page tools the shell-integration and interactive-screen tests
# drive: bash-completion, zsh, fish, tmux, man-db and groff from Debian's packages, installed
# when missing and we are root (the tests fail with a clear message without them).
ensure_test_tools() {
    local missing=()
    [ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
    command -v zsh >/dev/null 2>&1 || missing+=(zsh)
    command -v fish >/dev/null 2>&1 || missing+=(fish)
    command -v tmux >/dev/null 2>&1 || missing+=(tmux)
    command -v man >/dev/null 2>&1 || missing+=(man-db)
    command -v groff >/dev/null 2>&1 || missing+=(groff-base)
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! install_debian_packages "${missing[@]}"; then
        echo "warning: the shell-integration tests need: ${missing[*]}" >&2
    fi
}

# What the server tests (Tests/ServerTests, pytest) need: Debian's Chromium for the browser
# tests, and a virtualenv in .build/venv with Playwright for Python (without its own browser
# download: it drives /usr/lib/chromium/chromium), pytest, requests and Meilisearch's official
# SDK (meilisearch, for the Meilisearch-compatible API's tests) from PyPI. Installed when
# missing (Chromium only as root); the virtualenv is made once and reused.
ensure_server_test_tools() {
    local root venv
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    venv="$root/.build/venv"
    local missing=()
    [ -x /usr/lib/chromium/chromium ] || missing+=(chromium)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
    if [ ${#missing[@]} -gt 0 ]; then
        if ! install_debian_packages "${missing[@]}"; then
            echo "error: the server tests need: ${missing[*]}" >&2
            exit 1
        fi
    fi
    # openapi-spec-validator and schemathesis check the server's OpenAPI document
    # (Tests/ServerTests/test_openapi.py); the Meilisearch clients are at the versions whose own
    # test suites scripts/test runs (Tests/MeilisearchSuites/run.py).
    if ! "$venv/bin/python" -c 'import playwright, pytest, pytest_asyncio, pytest_timeout, requests
import meilisearch, meilisearch_python_sdk, orjson, openapi_spec_validator, schemathesis, sys
from importlib.metadata import version
sys.exit(version("meilisearch") != "0.43.0" or version("meilisearch-python-sdk") != "8.0.1")' \
        >/dev/null 2>&1; then
        echo "Installing playwright, pytest, requests, the Meilisearch clients," \
            "openapi-spec-validator and schemathesis into .build/venv..." >&2
        mkdir -p "$root/.build"
        python3 -m venv "$venv"
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 "$venv/bin/pip" install -q --disable-pip-version-check \
            playwright pytest pytest-asyncio pytest-timeout requests meilisearch==0.43.0 \
            "meilisearch-python-sdk[all]==8.0.1" openapi-spec-validator schemathesis >&2
    fi
}
