#!/usr/bin/env bash
# Shared by scripts/test and scripts/demo: `source` this file from the repository root, call
# use_ccache once, then configure_preset NAME [-DVAR=VALUE...] for each CMake preset.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "build.sh: source this file, then call use_ccache and configure_preset NAME" >&2
  exit 2
fi

# Compiles are cached across runs and across clones in other folders: paths below the checkout
# are hashed relative to it (CCACHE_BASEDIR), the folder itself is not hashed into debug builds
# (CCACHE_NOHASHDIR), and the cache lives in the user's cache directory. The test programs use
# precompiled Qt headers (cmake/Precompiled.cmake): ccache hashes the path-independent
# `<pch>.sum` written beside each instead of the .pch (CCACHE_PCH_EXTSUM), and the sloppiness
# is what ccache's manual asks for precompiled headers (the .pch is newer than the compile's
# start when it was just built).
use_ccache() {
  command -v ccache >/dev/null 2>&1 || return 0
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  export CCACHE_PCH_EXTSUM=true
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
}

# cmake --preset NAME [-DVAR=VALUE...]; a build folder an older checkout made with another
# generator (Unix Makefiles, before the presets named Ninja) is configured afresh instead of failing.
configure_preset() {
  local dir="build/$1"
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    echo "build: $dir was configured with another generator: configuring it afresh"
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake --preset "$@"
}
