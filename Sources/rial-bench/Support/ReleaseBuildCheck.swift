import ArgumentParser

/// The timing commands (`bench`, `bench-rescore`, `bench-tune`) refuse a debug build,
/// whose timings mean nothing, unless the user passes `--allow-debug-build`.
enum ReleaseBuildCheck {
    /// - Throws: `ValidationError` in a debug build when `allowDebugBuild` is false.
    static func require(allowDebugBuild: Bool) throws {
        if BuildInfo.configuration != "release" && !allowDebugBuild {
            throw ValidationError(
                "this is a debug build: timings would be meaningless. Build with `swift build -c release` "
                    + "or pass --allow-debug-build")
        }
    }
}
