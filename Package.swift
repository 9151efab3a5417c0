// swift-tools-version:6.0
//
// rial-bench: evaluation harness for the rial. provenance-camera detection pipeline.
// Data flows media -> detection -> evaluation -> reports; nothing flows back.

import PackageDescription

let package = Package(
    name: "rial-bench",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "rial-bench", targets: ["rial-bench"]),
        .library(name: "RialMedia", targets: ["RialMedia"]),
        .library(name: "RialCodecs", targets: ["RialCodecs"]),
        .library(name: "RialDetection", targets: ["RialDetection"]),
        .library(name: "RialSynth", targets: ["RialSynth"]),
        .library(name: "RialProvenance", targets: ["RialProvenance"]),
        .library(name: "RialEval", targets: ["RialEval"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
    ],
    targets: [
        // C: libjpeg-turbo and libpng behind setjmp-based error managers, so corrupt
        // input becomes an error code instead of exit() or longjmp into Swift.
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        // C: MP4/MOV decode and H.264 encode through FFmpeg (pkg-config libavformat,
        // libavcodec, libavutil, libswscale; Debian's -dev packages), every FFmpeg error a
        // status code plus one line of text, every FFmpeg object freed by the handle's close.
        .target(
            name: "CVideoCodecs",
            linkerSettings: [
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"),
                .linkedLibrary("swscale"),
            ]
        ),
        .systemLibrary(
            name: "CSystemZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSLCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Media types in pure Swift (standard library and Foundation only, no C module):
        // images, depth maps, EXIF, signal processing, JSON values, resampling, heatmaps.
        .target(name: "RialMedia"),
        // Everything that needs a C library or ZIPFoundation: JPEG and PNG decode and
        // encode, MP4 video decode and encode, SHA-256, the zlib and NumPy depth formats,
        // and the readers built on them.
        .target(
            name: "RialCodecs",
            dependencies: [
                "RialMedia", "CImageCodecs", "CVideoCodecs", "CSystemZlib", "COpenSSLCrypto",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Detection methods and the aggregator: Foundation and the media core only, no C
        // library, so the same code can run in the phone app.
        .target(name: "RialDetection", dependencies: ["RialMedia"]),
        .target(name: "RialSynth", dependencies: ["RialMedia", "RialCodecs", "RialProvenance"]),
        // Provenance cryptography through OpenSSL's libcrypto: the capture bundle (SHA-256,
        // HKDF-SHA256, AES-256-GCM) and the video frame hash chain with its verifier.
        .target(name: "RialProvenance", dependencies: ["RialMedia", "RialCodecs", "COpenSSLCrypto"]),
        .target(
            name: "RialEval",
            dependencies: [
                "RialMedia", "RialCodecs", "RialDetection", "RialSynth", "RialProvenance",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "rial-bench",
            dependencies: [
                "RialMedia", "RialCodecs", "RialDetection", "RialSynth", "RialEval", "RialProvenance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Ink", package: "Ink"),
            ]
        ),
        // Test fixtures shared by every test target: mirror paths, seeded generator, mutations.
        .target(name: "RialTestSupport", dependencies: ["RialMedia"], path: "Tests/RialTestSupport"),
        .testTarget(name: "RialMediaTests", dependencies: ["RialMedia", "RialTestSupport"]),
        .testTarget(name: "RialCodecsTests", dependencies: ["RialMedia", "RialCodecs", "RialTestSupport"]),
        .testTarget(
            name: "RialDetectionTests",
            dependencies: ["RialMedia", "RialCodecs", "RialDetection", "RialSynth", "RialTestSupport"]
        ),
        .testTarget(name: "RialSynthTests", dependencies: ["RialMedia", "RialSynth", "RialProvenance"]),
        .testTarget(
            name: "RialProvenanceTests", dependencies: ["RialMedia", "RialCodecs", "RialProvenance", "RialTestSupport"]
        ),
        .testTarget(
            name: "RialEvalTests",
            dependencies: ["RialMedia", "RialCodecs", "RialDetection", "RialSynth", "RialEval", "RialTestSupport"]
        ),
        // `rial-bench` so that the binary the tests run is built first.
        // Help/ holds the pinned `--help` texts the tests read from the source tree.
        .testTarget(
            name: "RialBenchCLITests", dependencies: ["rial-bench", "RialMedia", "RialCodecs", "RialTestSupport"],
            exclude: ["Help"]
        ),
    ]
)
