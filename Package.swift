// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ftsearch",
    products: [
        .library(name: "FTSearchKit", targets: ["FTSearchKit"]),
        .executable(name: "ftsearch", targets: ["ftsearch"]),
        .executable(name: "ftsearch-bench", targets: ["ftsearch-bench"]),
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
            dependencies: ["FTSearchKit"]
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
