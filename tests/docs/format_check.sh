#!/usr/bin/env bash
# Fails when clang-format (with the repository's .clang-format, PETSc's style) would change a C file under
# src/, include/, tests/, tutorials/, bench/ or tools/. Exits 77 (ctest's SKIP_RETURN_CODE) with a message
# when clang-format 14 is absent: another major version formats some constructs differently, so its verdict
# would not be about our style. CLANG_FORMAT picks the binary. Usage: format_check.sh <repo root>
set -u
root=${1:-.}
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for c in clang-format-14 clang-format; do
    command -v "$c" >/dev/null 2>&1 && { cf=$c; break; }
  done
fi
if [ -z "$cf" ]; then
  echo "SKIP: clang-format not found (Debian: apt-get install clang-format; config/install-deps.sh installs it)"
  exit 77
fi
version=$("$cf" --version)
major=$(echo "$version" | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$major" != "14" ]; then
  echo "SKIP: $cf is version ${major:-unknown}, the style is checked with clang-format 14 (Debian 12's)"
  exit 77
fi
[ -f "$root/.clang-format" ] || { echo "FAILED: no .clang-format in $root"; exit 1; }

cd "$root" || exit 1
dirs=""
for d in src include tests tutorials bench tools; do [ -d "$d" ] && dirs="$dirs $d"; done
# shellcheck disable=SC2086
mapfile -t files < <(find $dirs -type f \( -name '*.c' -o -name '*.h' \) | sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAILED: no C files found under$dirs"; exit 1; }

bad=0
for f in "${files[@]}"; do
  if ! "$cf" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    n=$("$cf" --style=file "$f" 2>&1 | diff "$f" - | grep -c '^>')
    echo "unformatted: $f ($n lines would change)"
    bad=$((bad + 1))
  fi
done
echo "format check ($version): ${#files[@]} C files, $bad not formatted"
if [ "$bad" != "0" ]; then
  echo "fix with: clang-format -i <file> (or for the whole tree: find$dirs -name '*.[ch]' | xargs clang-format -i)"
  exit 1
fi
echo "all C files formatted"
