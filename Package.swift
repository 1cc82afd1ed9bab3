// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ftsearch",
    // Synchronization's Atomic and Mutex need macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
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
        // The SQLite wrapper: connections, statements, values, errors, the migrator and the FTS5
        // plumbing. Its API is `package`: FTSearchKit builds on it, an app never sees it.
        .target(
            name: "FTSearchSQLite",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "FTSearchKit",
            dependencies: ["FTSearchSQLite", "CSQLite"],
            // Generates Text/LetterFoldingTable.swift.
            exclude: ["Text/generate-letter-folding.py"]
        ),
        .executableTarget(
            name: "ftsearch",
            dependencies: [
                "FTSearchKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The in-process half of scripts/bench: query and history latency through the library,
        // and the naive SQL plans it is compared with (through the SQLite wrapper).
        .executableTarget(
            name: "ftsearch-bench",
            dependencies: ["FTSearchKit", "FTSearchSQLite"]
        ),
        // What every test suite shares: seeded randomness, temporary folders, settings.
        .target(
            name: "FTSearchTestSupport",
            path: "Tests/FTSearchTestSupport"
        ),
        .testTarget(
            name: "FTSearchKitTests",
            dependencies: ["FTSearchKit", "FTSearchSQLite", "FTSearchTestSupport"],
            exclude: ["Resources"]
        ),
        .testTarget(
            name: "ftsearchTests",
            dependencies: ["ftsearch", "FTSearchKit", "FTSearchSQLite", "FTSearchTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
