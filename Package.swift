// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ftsearch",
    products: [
        .library(name: "FTSearchKit", targets: ["FTSearchKit"]),
        .executable(name: "ftsearch", targets: ["ftsearch"]),
        .executable(name: "ftsearch-bench", targets: ["ftsearch-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "FTSearchKit",
            dependencies: ["CSQLite"]
        ),
        .executableTarget(
            name: "ftsearch",
            dependencies: [
                "FTSearchKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The in-process half of scripts/bench: query and history latency through the library.
        .executableTarget(
            name: "ftsearch-bench",
            dependencies: ["FTSearchKit"]
        ),
        .testTarget(
            name: "FTSearchKitTests",
            dependencies: ["FTSearchKit"],
            exclude: ["Resources"]
        ),
        .testTarget(
            name: "ftsearchTests",
            dependencies: ["ftsearch", "FTSearchKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
