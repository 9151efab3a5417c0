# Sourced by scripts: puts a Swift toolchain installed under /opt/swift on PATH.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
# The build that scripts/test and scripts/ci-gate share: optimised, with testable imports
# (the tests reach internal API through `@testable import`, which a release build only
# allows with -enable-testing). One build serves both, so CI compiles the package once.
# Optimised tests run in about 1.5 minutes on 2 cores, against 30-40 in a debug build.
# scripts/run and the benchmarks use the plain release build.
# shellcheck disable=SC2034
testable_release=(-c release -Xswiftc -enable-testing)
