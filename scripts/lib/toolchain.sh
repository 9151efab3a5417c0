# Sourced by scripts: puts a Swift toolchain installed under /opt/swift on PATH.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

# The instruction set the Swift code is compiled for. On an x86-64 machine whose CPU has
# the x86-64-v3 level (AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE: Intel since Haswell, AMD since
# Excavator), the scripts compile for it (`-target-cpu haswell`, the LLVM name of that
# level); elsewhere, and with RIAL_TARGET_CPU=baseline, for the toolchain's default (SSE2
# on x86-64). RIAL_TARGET_CPU=haswell asks for that level without the check; other values
# are refused, because the binary could not say in its reports what it was built for.
#
# Why: the decoder (libjpeg-turbo) picks AVX2 at run time, while Swift code built for the
# baseline does four-lane Double and sixteen-lane byte SIMD in 128-bit halves; for the host
# it does them in one instruction. Every score stays the same to the last bit (Swift emits
# no fused multiply-adds and no reassociation without being asked; checked on all 1,375
# real-dev and 226 default-run samples, docs/end-to-end-latency.md). The binary then runs
# only on CPUs with that level, which is why the choice is made from the machine that
# builds it. RIAL_X86_64_V3 tells the binary, so reports can say which build they timed
# (`instruction_set` in each report's environment).
level3_flags=(-Xswiftc -target-cpu -Xswiftc haswell -Xswiftc -DRIAL_X86_64_V3)
host_cpu_flags=()
case "${RIAL_TARGET_CPU:-auto}" in
auto)
    if [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ]; then
        cpu_features=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
        level3=1
        for feature in avx avx2 bmi1 bmi2 fma f16c abm movbe; do
            [[ "$cpu_features" == *" $feature "* ]] || level3=0
        done
        if ((level3)); then host_cpu_flags=("${level3_flags[@]}"); fi
        unset cpu_features level3 feature
    fi
    ;;
baseline) ;;
haswell) host_cpu_flags=("${level3_flags[@]}") ;;
*)
    echo "RIAL_TARGET_CPU: expected auto, baseline or haswell, got '$RIAL_TARGET_CPU'" >&2
    return 1
    ;;
esac
unset level3_flags

# The optimised build scripts/run, the benchmarks and the study scripts use.
# shellcheck disable=SC2034
release=(-c release "${host_cpu_flags[@]}")
# The build that scripts/test and scripts/ci-gate share: optimised, with testable imports
# (the tests reach internal API through `@testable import`, which a release build only
# allows with -enable-testing). One build serves both, so CI compiles the package once.
# Optimised tests run in about 1.5 minutes on 2 cores, against 30-40 in a debug build.
# shellcheck disable=SC2034
testable_release=(-c release -Xswiftc -enable-testing "${host_cpu_flags[@]}")
