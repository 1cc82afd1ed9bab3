// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ftsearch",
    products: [
        .library(name: "FTSearchKit", targets: ["FTSearchKit"]),
        .executable(name: "ftsearch", targets: ["ftsearch"]),
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
