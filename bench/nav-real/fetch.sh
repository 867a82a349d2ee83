#!/usr/bin/env bash
# Fetches the real projects of the navigation set at pinned versions into one git repository each
# (default bench/corpus/nav-real/<project>), so labels name stable paths and lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="${QUARRY_NAV_CORPUS:-bench/corpus/nav-real}"
CORPORA="${QUARRY_CORPORA:-../shared/corpora}"
mkdir -p "$ROOT/downloads"
ROOT="$(cd "$ROOT" && pwd)"
DL="$ROOT/downloads"

# A private apt state, so fetching Debian sources needs no change to the machine's apt sources.
APT_STATE="$ROOT/apt"
apt_private() {
  apt-get -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APT_STATE/parts" \
    -o Dir::State::Lists="$APT_STATE/lists" -o Dir::Cache::archives="$APT_STATE/archives" "$@"
}
prepare_apt() {
  [ -d "$APT_STATE/lists" ] && return
  mkdir -p "$APT_STATE/parts" "$APT_STATE/lists/partial" "$APT_STATE/archives/partial"
  cat > "$APT_STATE/parts/bookworm.sources" <<'SOURCES'
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt_private update -qq
}

# Commits a directory as the single commit of its own repository, with a fixed author and date.
commit_tree() {
  local dir="$1"
  git -C "$dir" init -q -b main
  git -C "$dir" add -A -f
  GIT_AUTHOR_NAME=nav-real GIT_AUTHOR_EMAIL=nav@quarry.invalid GIT_AUTHOR_DATE=2026-01-01T00:00:00Z \
  GIT_COMMITTER_NAME=nav-real GIT_COMMITTER_EMAIL=nav@quarry.invalid GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
    git -C "$dir" commit -q -m "$(basename "$dir") as fetched"
}

from_bundle() { # project bundle tag
  local dest="$ROOT/$1"
  [ -d "$dest/.git" ] && return
  [ -f "$CORPORA/$2.bundle" ] || { echo "fetch: $CORPORA/$2.bundle is missing: skipping $1" >&2; return; }
  git clone -q "$CORPORA/$2.bundle" "$dest"
  git -C "$dest" checkout -q -B main "$3"
}

from_npm() { # project package@version
  local dest="$ROOT/$1"
  [ -d "$dest/.git" ] && return
  (cd "$DL" && npm pack --silent "$2" >/dev/null)
  mkdir -p "$dest"
  tar -xzf "$DL/$(echo "${2#@}" | sed 's|/|-|; s|@|-|').tgz" -C "$dest" --strip-components=1
  commit_tree "$dest"
}

from_deb() { # project package path-inside-the-package
  local dest="$ROOT/$1"
  [ -d "$dest/.git" ] && return
  prepare_apt
  (cd "$DL" && apt_private download "$2" 2>/dev/null)
  local extracted="$DL/$2"
  rm -rf "$extracted" && mkdir -p "$extracted"
  dpkg-deb -x "$DL/$2"_*.deb "$extracted"
  mkdir -p "$dest"
  cp -a "$extracted/$3/." "$dest/"
  commit_tree "$dest"
}

from_deb_source() { # project source-package version
  local dest="$ROOT/$1"
  [ -d "$dest/.git" ] && return
  prepare_apt
  (cd "$DL" && apt_private source --download-only "$2=$3" 2>/dev/null)
  local orig
  orig="$(ls "$DL/$2"_*.orig.tar.* | head -1)"
  mkdir -p "$dest"
  tar -xf "$orig" -C "$dest" --strip-components=1
  commit_tree "$dest"
}

from_bundle requests requests v2.32.3
from_bundle koa koa v2.16.4
from_bundle gin gin v1.10.0
from_bundle ripgrep ripgrep 14.1.0
from_deb click python3-click usr/lib/python3/dist-packages
from_deb cobra golang-github-spf13-cobra-dev usr/share/gocode/src/github.com/spf13/cobra
from_deb regex-syntax librust-regex-syntax-dev usr/share/cargo/registry/regex-syntax-0.6.27
from_npm commander commander@12.1.0
from_npm rxjs rxjs@7.8.1
from_npm ws ws@8.13.0
from_npm markdown-it markdown-it@14.1.0
from_npm semver semver@7.6.0
from_npm ajv ajv@8.12.0
from_npm zod zod@4.1.12
from_npm extended-iterable @harperfast/extended-iterable@1.0.3
from_deb_source jq jq 1.6-2.1+deb12u2
from_deb_source jsoup jsoup 1.15.3-1
echo "$ROOT"
