#!/usr/bin/env bash
# The toolkit matrix (issue 13): the course's `make test` once per CUDA toolkit the README promises
# (11.8, 12.4, 13.5), each from a clean copy of the tree, each with the system's own CUDA hidden.
#
#   bash .ci/toolkits.sh [--tree DIR] [VERSION...]      (default: every version, the tree of this script)
#
# Each toolkit is assembled once into ${CUDA_TOOLKIT_CACHE:-/var/cache/cuda-course-toolkits}/<version>,
# its downloads kept under .../downloads, so a second run downloads nothing:
#   13.x        PyPI's cuda-toolkit wheels alone: since CUDA 13 they carry the whole compiler.
#   11.8, 12.4  PyPI's wheels give headers, libraries, ptxas and libdevice but no nvcc, cicc,
#               cudafe++, fatbinary or nvlink; those come from Debian's non-free nvidia-cuda-toolkit
#               of the same release (bookworm: 11.8.89, trixie: 12.4.131), downloaded with a private
#               apt configuration and unpacked with dpkg-deb (nothing is installed on the system).
# The cu11/cu12 runtime wheels have no libcudart_static.a/libcudadevrt.a, so those two link the
# shared runtime (CUDART=shared) and run with LD_LIBRARY_PATH at the toolkit's lib/.
# CUDA 11.8 supports gcc up to 11: it builds with g++-11 (installed from Debian if missing).
#
# Needs root (CI runs as root): apt-get for g++-11, and `unshare -m` to hide the system's CUDA.
# Also read: DEBIAN_MIRROR (default: the Debian archive this machine's apt uses), TOOLKITS_KEEP=1
# (keep the tree copies and full make test logs, and say where).
set -euo pipefail

SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
ROOT=$(cd "$(dirname "$SELF")/.." && pwd)
CACHE=${CUDA_TOOLKIT_CACHE:-/var/cache/cuda-course-toolkits}
DOWNLOADS=$CACHE/downloads
ALL_VERSIONS=(11.8 12.4 13.5)
# Bump when the way a toolkit is put together changes: cached toolkits are then assembled again
# (from the cached downloads).
RECIPE_REV=1

say()  { echo "toolkits: $*"; }
die()  { echo "toolkits: ERROR: $*" >&2; exit 1; }
# first_file GLOB...: the first existing file of the expanded arguments (nothing if none)
first_file() { local f; for f in "$@"; do if [ -e "$f" ]; then echo "$f"; return; fi; done; }

# ---- what each version is made of -------------------------------------------------------------
# recipe VERSION: sets PIP_SPEC (the PyPI requirement), DEB_SUITE/DEB_UPSTREAM (Debian release and
# upstream version of nvidia-cuda-toolkit, empty for 13.x), HOSTCXX (empty: nvcc's default, the
# system g++) and CUDART (empty: the course's default, static).
# (11.8 goes without the cccl extra: its wheel is yanked on PyPI as broken, and the course uses
# no Thrust/CUB.  13.x needs no cudart extra: its nvcc extra brings the runtime.)
recipe() {
    case $1 in
        11.8) PIP_SPEC="cuda-toolkit[nvcc,cudart,cublas,nvtx]==11.8.0"
              DEB_SUITE=bookworm DEB_UPSTREAM=11.8.89  HOSTCXX=g++-11 CUDART=shared ;;
        12.4) PIP_SPEC="cuda-toolkit[nvcc,cudart,cublas,cccl,nvtx]==12.4.1"
              DEB_SUITE=trixie   DEB_UPSTREAM=12.4.131 HOSTCXX=""     CUDART=shared ;;
        13.5) PIP_SPEC="cuda-toolkit[nvcc,cublas,cccl,nvtx]==13.5.0"
              DEB_SUITE=""       DEB_UPSTREAM=""       HOSTCXX=""     CUDART="" ;;
        *)    die "unknown toolkit version '$1' (known: ${ALL_VERSIONS[*]})" ;;
    esac
}

# ---- step 1: downloads ---------------------------------------------------------------------------
# fetch_wheels VERSION: every wheel of PIP_SPEC into downloads/wheels-VERSION (skipped when complete)
fetch_wheels() {
    local v=$1 dir=$DOWNLOADS/wheels-$1
    if [ "$(cat "$dir/.complete" 2>/dev/null)" = "$PIP_SPEC" ]; then return 0; fi
    say "$v: downloading $PIP_SPEC from PyPI"
    mkdir -p "$dir"
    python3 -m pip download --quiet --disable-pip-version-check --no-cache-dir \
            --only-binary=:all: -d "$dir" "$PIP_SPEC" \
        || die "$v: PyPI download of $PIP_SPEC failed (see pip's message above)"
    echo "$PIP_SPEC" >"$dir/.complete"
    FETCHED=yes
}

# The Debian archive that this machine's apt already uses (its suite names are swapped for ours);
# DEBIAN_MIRROR overrides it.
debian_mirror() {
    if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
    local uri
    # shellcheck disable=SC2016  # $(...) here is apt's format syntax, not the shell's
    uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
          awk '$2 ~ /^[a-z]+$/ && $1 !~ /security/ {print $1; exit}')
    echo "${uri:-http://deb.debian.org/debian/}"
}

# fetch_deb VERSION: Debian's nvidia-cuda-toolkit DEB_UPSTREAM into downloads/debian-DEB_SUITE, with
# a private apt configuration (its own sources, lists and cache) so the system's apt is untouched.
# Sets DEB to the file.
fetch_deb() {
    local v=$1 dir=$DOWNLOADS/debian-$DEB_SUITE pkg=nvidia-cuda-toolkit keyring got
    DEB=$(first_file "$dir/${pkg}_${DEB_UPSTREAM}"~*_amd64.deb)
    if [ -n "$DEB" ]; then return 0; fi
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -f "$keyring" ] || die "$v: $keyring is missing (apt-get install debian-archive-keyring)"
    say "$v: downloading $pkg $DEB_UPSTREAM (Debian $DEB_SUITE, non-free) from Debian's package archive"
    mkdir -p "$dir/apt/sources.d" "$dir/apt/preferences.d" "$dir/apt/state/lists/partial" \
             "$dir/apt/cache/archives/partial"
    echo "deb [signed-by=$keyring] $(debian_mirror) $DEB_SUITE main contrib non-free" >"$dir/apt/sources.list"
    : >"$dir/apt/status"
    local apt=(apt-get -q -o Dir::Etc::SourceList="$dir/apt/sources.list"
               -o Dir::Etc::SourceParts="$dir/apt/sources.d"
               -o Dir::Etc::Preferences="$dir/apt/preferences"
               -o Dir::Etc::PreferencesParts="$dir/apt/preferences.d"
               -o Dir::State="$dir/apt/state" -o Dir::State::status="$dir/apt/status"
               -o Dir::Cache="$dir/apt/cache" -o APT::Architecture=amd64
               -o APT::Architectures::=amd64 -o APT::Sandbox::User=root)
    # (Error-Mode=any: a list that cannot be fetched is an error, not a warning)
    "${apt[@]}" -o APT::Update::Error-Mode=any update >"$dir/apt/update.log" 2>&1 ||
        { cat "$dir/apt/update.log" >&2; die "$v: could not read Debian $DEB_SUITE's package lists (non-free) from Debian's package archive"; }
    # into a folder of its own first, so an interrupted download never looks like a cached one
    rm -rf "$dir/partial"; mkdir -p "$dir/partial"
    (cd "$dir/partial" && "${apt[@]}" -qq download "$pkg") ||
        die "$v: download of Debian $DEB_SUITE package $pkg failed"
    mv "$dir/partial/"*.deb "$dir/"; rmdir "$dir/partial"
    DEB=$(first_file "$dir/${pkg}_${DEB_UPSTREAM}"~*_amd64.deb)
    if [ -z "$DEB" ]; then
        got=$(first_file "$dir/${pkg}"_*.deb)
        die "$v: Debian $DEB_SUITE's $pkg is not CUDA $DEB_UPSTREAM (got: ${got:-nothing})"
    fi
    FETCHED=yes
}

# ---- step 2: assembly ----------------------------------------------------------------------------
# A toolkit folder laid out like NVIDIA's own:  bin/ (nvcc, nvcc.profile, ptxas, ...),
# nvvm/{bin/cicc,libdevice,lib64}, include/, lib/.  Built in a temporary folder next to it and
# moved into place only when complete, with a stamp that names what it was made of.

# dev_symlinks LIBDIR: libfoo.so -> libfoo.so.N where the wheels ship only the versioned file
# (the linker's -lfoo needs the unversioned name).
dev_symlinks() {
    local f base
    for f in "$1"/lib*.so.*; do
        [ -e "$f" ] || continue
        base=${f##*/}; base=${base%%.so.*}.so
        [ -e "$1/$base" ] || ln -s "${f##*/}" "$1/$base"
    done
}

assemble() {
    local v=$1 tk=$CACHE/$1 stamp tmp py
    stamp="recipe $RECIPE_REV: $PIP_SPEC${DEB:+ + $(basename "$DEB")}"
    if [ "$(cat "$tk/.assembled" 2>/dev/null)" = "$stamp" ]; then return 0; fi
    say "$v: assembling into $tk"
    # (leftovers of an interrupted assembly go first; the cache lock makes this run the only one)
    rm -rf "$CACHE/.assemble-$v".*
    tmp=$CACHE/.assemble-$v.$$
    mkdir -p "$tmp"
    # The wheels, installed from the download folder only (no index: nothing is fetched here).
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-index --no-compile \
            --find-links "$DOWNLOADS/wheels-$v" --target "$tmp/py" "$PIP_SPEC" ||
        die "$v: installing $PIP_SPEC from the downloaded wheels failed"
    py=$tmp/py/nvidia
    if [ -z "$DEB_SUITE" ]; then
        # CUDA 13: every wheel installs into one prefix, nvidia/cu13, which is a complete
        # toolkit with its own bin/nvcc.profile.
        [ -x "$py/cu13/bin/nvcc" ] || die "$v: the wheels hold no nvidia/cu13/bin/nvcc"
        mv "$py/cu13" "$tmp/tk"
    else
        # CUDA 11/12: headers and libraries of every wheel (nvidia/<component>/{include,lib}) merged
        # into one include/ and lib/, as in NVIDIA's toolkit; the compiler from Debian's package.
        mkdir -p "$tmp/tk/bin/crt" "$tmp/tk/include" "$tmp/tk/lib" "$tmp/tk/nvvm/bin" "$tmp/deb"
        local c
        for c in "$py"/*/; do
            [ -d "$c/include" ] && cp -a "$c/include/." "$tmp/tk/include/"
            [ -d "$c/lib" ] && find "$c/lib" -maxdepth 1 -name 'lib*.so*' -exec cp -a {} "$tmp/tk/lib/" \;
        done
        find "$tmp/tk/include" -name '__init__.py' -delete
        cp -a "$py/cuda_nvcc/bin/ptxas" "$tmp/tk/bin/"
        cp -a "$py/cuda_nvcc/nvvm/." "$tmp/tk/nvvm/"
        find "$tmp/tk/nvvm" -name '__init__.py' -delete
        dpkg-deb -x "$DEB" "$tmp/deb" || die "$v: unpacking $DEB failed"
        # Debian puts nvcc, cicc and the crt stubs in /usr/lib/nvidia-cuda-toolkit/bin, the rest in
        # /usr/bin; NVIDIA's layout keeps cicc in nvvm/bin.
        local d=$tmp/deb/usr/lib/nvidia-cuda-toolkit/bin
        cp -a "$d/nvcc" "$tmp/deb/usr/bin/cudafe++" "$tmp/deb/usr/bin/fatbinary" \
              "$tmp/deb/usr/bin/nvlink" "$tmp/deb/usr/bin/bin2c" "$tmp/tk/bin/"
        cp -a "$d/crt/link.stub" "$d/crt/prelink.stub" "$tmp/tk/bin/crt/"
        cp -a "$d/cicc" "$tmp/tk/nvvm/bin/"
        # Debian's nvcc.profile points at /usr/lib/...; this one points at the folder itself
        # (the same lines as NVIDIA's own profile; _HERE_ is the folder nvcc runs from).
        cat >"$tmp/tk/bin/nvcc.profile" <<'EOF'

TOP              = $(_HERE_)/..

NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice

LD_LIBRARY_PATH += $(TOP)/lib:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):

INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib"

CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
        local t
        for t in bin/nvcc bin/ptxas bin/cudafe++ bin/fatbinary bin/nvlink bin/crt/link.stub \
                 nvvm/bin/cicc nvvm/libdevice/libdevice.10.bc include/cuda_runtime.h \
                 include/crt/host_config.h include/cublas_v2.h include/nvtx3/nvToolsExt.h; do
            [ -e "$tmp/tk/$t" ] || die "$v: the assembled toolkit lacks $t"
        done
    fi
    dev_symlinks "$tmp/tk/lib"
    "$tmp/tk/bin/nvcc" --version | grep -q "release $v," ||
        die "$v: the assembled nvcc does not run or is not release $v"
    echo "$stamp" >"$tmp/tk/.assembled"
    rm -rf "$tk"; mv "$tmp/tk" "$tk"; rm -rf "$tmp"
    ASSEMBLED=yes
}

# ensure_host_compiler: CUDA 11.8's nvcc refuses gcc 12 (Debian 12's default); g++-11 is in Debian 12.
ensure_host_compiler() {
    [ -n "$HOSTCXX" ] || return 0
    command -v "$HOSTCXX" >/dev/null && return 0
    [ "$(id -u)" = 0 ] || die "$HOSTCXX is needed for CUDA $1 and is not installed (apt-get install $HOSTCXX)"
    say "$1: installing $HOSTCXX (the host compiler CUDA $1 supports) from Debian's package archive"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$HOSTCXX" >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q "$HOSTCXX" >/dev/null; } ||
        die "installing Debian package $HOSTCXX failed"
}

# prepare VERSION: downloads + assembly + host compiler, timed; writes its numbers to $WORK/VERSION.prep
prepare() {
    local v=$1 t0 t1 t2 mb
    recipe "$v"
    FETCHED=no ASSEMBLED=no DEB=""
    t0=$(date +%s)
    fetch_wheels "$v"
    [ -z "$DEB_SUITE" ] || fetch_deb "$v"
    t1=$(date +%s)
    assemble "$v"
    ensure_host_compiler "$v"
    t2=$(date +%s)
    mb=$(du -scm "$DOWNLOADS/wheels-$v" ${DEB:+"$DEB"} | tail -1 | cut -f1)
    printf '%s MB %s, assembly %s\n' "$mb" \
        "$([ $FETCHED = yes ] && echo "downloaded in $((t1 - t0)) s" || echo "from the cache")" \
        "$([ $ASSEMBLED = yes ] && echo "$((t2 - t1)) s" || echo "cached")" >"$WORK/$v.prep"
    say "$v: ready ($(cat "$WORK/$v.prep"))"
}

# ---- step 3: make test with the system's CUDA hidden -------------------------------------------
# The system CUDA (here 13.0 in /usr/local/cuda-13.0, copied into /usr/local/{include,lib,bin},
# and an ld.so.conf entry) is on gcc's, ld's and ld.so's default search paths: a header or library
# missing from the toolkit under test would silently come from it and the matrix would prove
# nothing.  Each run therefore happens in a private mount namespace (unshare -m) in which those
# places are covered with empty or filtered tmpfs mounts; nothing outside the namespace changes.

# is_cuda_entry ENTRY: whether a file in /usr/local/{bin,lib} belongs to the CUDA toolkit
CUDA_TOOLS='nvcc|ptxas|cudafe\+\+|fatbinary|nvlink|bin2c|__nvcc_device_query|cicc|cuobjdump|nvdisasm|nvprune|cu\+\+filt|compute-sanitizer|cuda-gdb|cuda-gdbserver|nsys|ncu|nv-nsight-cu-cli|nvvp|crt'
is_cuda_entry() {
    local e=$1 name=${1##*/}
    [[ $name =~ ^($CUDA_TOOLS)$ ]] && return 0
    [[ $name =~ (cuda|cudart|cublas|nvrtc|nvvm|nvToolsExt|nvtx|nvJitLink|cufft|curand|cusolver|cusparse|npp|nvjpeg|OpenCL|cupti) ]] && return 0
    [ -L "$e" ] && [[ $(readlink "$e") == *cuda* ]] && return 0
    # small wrapper scripts that exec a toolkit binary
    [ -f "$e" ] && [ "$(stat -c %s "$e")" -lt 4096 ] && grep -qs 'cuda' "$e" && return 0
    return 1
}
keep_in_bin() { ! is_cuda_entry "$1"; }
# In /usr/local/lib only subfolders such as python3.x/ stay: a library file there is on the
# linker's default path, and the course's programs need none from /usr/local.
keep_in_lib() { [ -d "$1" ] && [ ! -L "$1" ] && [ "${1##*/}" != x86_64-linux-gnu ] && ! is_cuda_entry "$1"; }

# hide_empty DIR: cover DIR (a symlink's target) with an empty read-only tmpfs
hide_empty() {
    local real
    [ -e "$1" ] || return 0
    real=$(readlink -f "$1")
    [ -d "$real" ] || return 0
    mountpoint -q "$real" && [ "$(findmnt -no SOURCE "$real")" = hidden-cuda ] && return 0
    mount -t tmpfs -o ro,size=4k,mode=0755 hidden-cuda "$real"
}

# hide_filtered DIR KEEP: cover DIR with a tmpfs that shows only the entries KEEP accepts
hide_filtered() {
    local dir=$1 keep=$2 orig e name
    [ -d "$dir" ] && [ ! -L "$dir" ] || return 0
    orig=$(mktemp -d "$NS_TMP/orig.XXXX")
    mount --bind "$dir" "$orig"
    mount -t tmpfs -o size=1m,mode=0755 filtered-cuda "$dir"
    for e in "$orig"/* "$orig"/.[!.]*; do
        [ -e "$e" ] || [ -L "$e" ] || continue
        "$keep" "$e" || continue
        name=${e##*/}
        if [ -L "$e" ]; then ln -s "$(readlink "$e")" "$dir/$name"
        elif [ -d "$e" ]; then mkdir "$dir/$name"; mount --bind "$e" "$dir/$name"
        else : >"$dir/$name"; mount --bind "$e" "$dir/$name"; fi
    done
    mount -o remount,ro "$dir"
    umount -l "$orig"
}

hide_system_cuda() {
    local d f
    for d in /usr/local/cuda /usr/local/cuda-* /usr/local/include /usr/local/lib64 /usr/local/nvvm \
             /usr/local/targets /opt/cuda /opt/nvidia/cuda /usr/lib/cuda /usr/lib/nvidia-cuda-toolkit; do
        hide_empty "$d"
    done
    hide_filtered /usr/local/bin keep_in_bin
    hide_filtered /usr/local/lib keep_in_lib
    # The dynamic loader: drop the CUDA entries of ld.so.conf.d and use a cache rebuilt without
    # them (the system cache still lists /usr/local/cuda-13.0/lib's libcudart.so.13).
    for f in /etc/ld.so.conf.d/*; do
        if grep -qs cuda "$f"; then mount --bind /dev/null "$f"; fi
    done
    # (-X: ldconfig leaves the libraries' symlinks alone, which are outside the namespace)
    ldconfig -X -C "$NS_TMP/ld.so.cache" 2>/dev/null || { echo "toolkits: ERROR: ldconfig failed" >&2; return 1; }
    mount --bind "$NS_TMP/ld.so.cache" /etc/ld.so.cache
    # The environment: nothing may point at a CUDA other than the one under test.
    unset CUDA_HOME CUDA_PATH CUDA_ROOT CUDA_TOOLKIT_ROOT_DIR CUDACXX CPATH C_INCLUDE_PATH \
          CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH NVCC_CCBIN NVCC_PREPEND_FLAGS NVCC_APPEND_FLAGS
    PATH=$(echo "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd: -)
    export PATH
}

# prove_hidden HOSTCXX: fail unless the system CUDA is out of reach of gcc, ld, ld.so and PATH,
# while python3, gcc and make still work.
prove_hidden() {
    local cxx=${1:-g++} bad=() probe=$NS_TMP/probe
    [ -e /usr/local/include/cuda_runtime.h ] && bad+=("/usr/local/include/cuda_runtime.h exists")
    [ -e /usr/local/cuda/bin/nvcc ] && bad+=("/usr/local/cuda/bin/nvcc exists")
    echo '#include <cuda_runtime.h>' | ${CC:-gcc} -E -x c - >/dev/null 2>&1 && bad+=("gcc finds cuda_runtime.h")
    echo '#include <cublas_v2.h>' | "$cxx" -E -x c++ - >/dev/null 2>&1 && bad+=("$cxx finds cublas_v2.h")
    echo 'int main(void){return 0;}' | ${CC:-gcc} -x c - -o "$probe" -lcudart >/dev/null 2>&1 && bad+=("ld finds -lcudart")
    echo 'int main(void){return 0;}' | ${CC:-gcc} -x c - -o "$probe" -lcublas >/dev/null 2>&1 && bad+=("ld finds -lcublas")
    ldconfig -p | grep -qE 'libcudart|libcublas' && bad+=("ld.so.cache lists libcudart/libcublas")
    command -v nvcc >/dev/null && bad+=("nvcc is on PATH ($(command -v nvcc))")
    command -v ptxas >/dev/null && bad+=("ptxas is on PATH ($(command -v ptxas))")
    if [ ${#bad[@]} -gt 0 ]; then
        printf 'toolkits: ERROR: the system CUDA is still visible: %s\n' "${bad[@]}" >&2
        return 1
    fi
    if ! { python3 -c 'import csv, re' && make --version && ${CC:-gcc} --version; } >/dev/null; then
        echo "toolkits: ERROR: python3, make or gcc broke when hiding the system CUDA" >&2; return 1
    fi
    echo "      system CUDA hidden: no cuda_runtime.h/cublas_v2.h for gcc/$cxx, no -lcudart/-lcublas for ld,"
    echo "      no libcudart in ld.so.cache, no nvcc/ptxas on PATH; python3, make and gcc still work"
}

# in_namespace TK TREE LOG HOSTCXX CUDART: runs inside `unshare -m` (a private mount namespace; see above)
in_namespace() {
    local tk=$1 tree=$2 log=$3 t0 rc=0 args
    HOSTCXX=$4 CUDART=$5
    NS_TMP=$(mktemp -d "$(dirname "$log")/ns.XXXX")    # inside the run's folder, removed with it
    hide_system_cuda
    prove_hidden "$HOSTCXX" || return 1
    args=(NVCC="$tk/bin/nvcc")
    [ -n "$HOSTCXX" ] && args+=(HOSTCXX="$HOSTCXX")
    [ -n "$CUDART" ] && args+=(CUDART="$CUDART")
    echo "      make test ${args[*]}  (LD_LIBRARY_PATH=$tk/lib)"
    t0=$(date +%s)
    LD_LIBRARY_PATH=$tk/lib make -C "$tree" --no-print-directory test "${args[@]}" >"$log" 2>&1 || rc=$?
    echo "$(($(date +%s) - t0))" >"$log.seconds"
    return $rc
}

# copy_tree SRC DST: the files of SRC's working tree that git knows (tracked or new, not ignored,
# not deleted), so no build output comes along: a clean tree, as CI's fresh clone is.  (Not a
# git clone: that would test the last commit, not the tree CI's own make test just tested.)
copy_tree() {
    local src=$1 dst=$2
    mkdir -p "$dst"
    if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (cd "$src" && git ls-files -z --cached --others --exclude-standard --deduplicate |
            while IFS= read -r -d '' f; do
                if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
            done | tar --null -T - -cf -) | tar -xf - -C "$dst"
    else
        cp -a "$src/." "$dst/"    # not a git checkout: all of it
    fi
}

# run_one VERSION: clean copy, make test in the namespace; prints the non-PASS lines, the last
# line and the time; records them for the summary.
run_one() {
    local v=$1 tree=$WORK/tree-$1 log=$WORK/$1.log rc last secs
    recipe "$v"
    say "$v: make test in a clean copy of $TREE"
    copy_tree "$TREE" "$tree"
    set +e
    unshare --mount --propagation private -- \
        bash "$SELF" --in-namespace "$CACHE/$v" "$tree" "$log" "$HOSTCXX" "$CUDART"
    rc=$?
    set -e
    if [ -f "$log" ]; then
        # The full log has a line per check; show the failures (with the output test.sh indents
        # under them) and the last line.
        awk '/^FAIL /{show=1; print; next} show && /^ /{print; next} {show=0}' "$log" | sed 's/^/      /'
        last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
        if [ -z "$last" ]; then
            tail -20 "$log" | sed 's/^/      /'
            last="make test stopped: $(tail -1 "$log")"
        fi
    else
        last="did not run (see above)"
    fi
    secs=$(cat "$log.seconds" 2>/dev/null || echo -)
    say "$v: $last ($secs s, exit $rc)"
    printf '%s\t%s\t%s\t%s\n' "$v" "$last" "$secs" "$rc" >>"$WORK/results"
    return $rc
}

# shellcheck disable=SC2059  # (printf "$fmt": one format for the header and the rows)
summary() {
    local v last secs rc prep status=0 fmt='%-8s %-14s %-22s %8s  %-6s %s\n'
    echo
    echo "CUDA toolkit matrix: make test of $TREE"
    printf "$fmt" toolkit "host compiler" "make test" seconds result "download, assembly"
    while IFS=$'\t' read -r v last secs rc; do
        recipe "$v"
        prep=$(cat "$WORK/$v.prep" 2>/dev/null || echo -)
        printf "$fmt" "$v" "${HOSTCXX:-g++ ($(g++ -dumpversion))}" "$last" "$secs" \
            "$([ "$rc" = 0 ] && echo ok || echo FAIL)" "$prep"
        [ "$rc" = 0 ] || status=1
    done <"$WORK/results"
    return $status
}

main() {
    local versions=() v status=0
    TREE=$ROOT
    while [ $# -gt 0 ]; do
        case $1 in
            --tree) TREE=$(cd "$2" && pwd); shift 2 ;;
            -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$SELF"; exit 0 ;;
            *) recipe "$1"; versions+=("$1"); shift ;;
        esac
    done
    [ ${#versions[@]} -gt 0 ] || versions=("${ALL_VERSIONS[@]}")
    [ "$(uname -m)" = x86_64 ] || die "the toolkit recipes are for x86_64 (this is $(uname -m))"
    [ "$(id -u)" = 0 ] || die "needs root: unshare -m hides the system CUDA (and apt-get installs g++-11)"
    local tool
    for tool in unshare flock dpkg-deb apt-get git tar; do
        command -v "$tool" >/dev/null || die "needs $tool (util-linux: unshare, flock; dpkg; apt; git; tar)"
    done
    python3 -m pip --version >/dev/null 2>&1 || die "needs pip for python3 (python3 -m pip)"
    WORK=$(mktemp -d)
    # TOOLKITS_KEEP=1 keeps the copies of the tree and the full make test logs for a look afterwards.
    if [ -n "${TOOLKITS_KEEP:-}" ]; then say "keeping the trees and logs in $WORK"
    else trap 'rm -rf "$WORK"' EXIT; fi
    mkdir -p "$CACHE" "$DOWNLOADS"
    # One run at a time assembles into the cache.
    exec 9>"$CACHE/.lock"
    flock 9
    for v in "${versions[@]}"; do prepare "$v"; done
    flock -u 9
    for v in "${versions[@]}"; do run_one "$v" || status=1; done
    summary || status=1
    return $status
}

if [ "${1:-}" = --in-namespace ]; then
    shift
    in_namespace "$@"
else
    main "$@"
fi
