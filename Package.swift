// swift-tools-version:6.0
import PackageDescription

// Release builds made as scripts/install makes them (`--static-swift-stdlib`, with
// FTSEARCH_STATIC_EXECUTABLE=1; see build_release in scripts/lib/prerequisites.sh) link ftsearch
// as one static executable on Linux: no dynamic loader mapping five libraries and binding their
// symbols before every command, which scripts and completions start once per call
// (docs/architecture.md: One static executable). It needs the static Swift runtime that flag builds against, and SQLite's
// libsqlite3.a (Debian: libsqlite3-dev). glibc's position-independent static start refuses the
// run path SwiftPM gives every executable, so the image's address is fixed; the network-facing
// ftsearch-server stays position-independent.
let cliLinkerSettings: [LinkerSetting] =
    Context.environment["FTSEARCH_STATIC_EXECUTABLE"] == "1"
    ? [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]
    : []

// The upcoming language features the package's targets adopt, as swift-log and Hummingbird do:
// existentials spelled `any`, members visible only from modules a file imports itself, and
// imports internal unless a file says its public (or package) API is written in the imported
// module's types (`public import FTSearchFormats`), so a dependency cannot leak by accident.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ftsearch",
    // Synchronization's Atomic and Mutex need macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "FTSearchKit", targets: ["FTSearchKit"]),
        .executable(name: "ftsearch", targets: ["ftsearch"]),
        .executable(name: "ftsearch-server", targets: ["ftsearch-server"]),
        .executable(name: "ftsearch-bench", targets: ["ftsearch-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
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
            dependencies: ["CSQLite"],
            swiftSettings: strictSettings
        ),
        // The readers and writers of JSON, NDJSON, CSV and TSV: bytes in, records of fields out
        // (and back), with no SQLite and no model of people or animals in them.
        .target(
            name: "FTSearchFormats",
            swiftSettings: strictSettings
        ),
        // People, animals and their kinds and times: the records as apps and the engine see
        // them, with no storage in them (re-exported by FTSearchKit).
        .target(
            name: "FTSearchModels",
            dependencies: ["FTSearchFormats"],
            swiftSettings: strictSettings
        ),
        // The decoder of FTS5's segments (fts5_index.c's record formats): what the search
        // pipeline's doclist reader reads FTS5's index with, tested against FTS5's own output.
        .target(
            name: "FTS5Segments",
            dependencies: ["FTSearchSQLite"],
            swiftSettings: strictSettings
        ),
        // The engine: the schema and its migrations, the derived data behind one interface, the
        // text folding and the search pipeline (matching, scoring, ordering, keeping), filters,
        // facets and sort. Its API to the facade is `package`; its public types (requests,
        // results, filters) are re-exported by FTSearchKit.
        .target(
            name: "FTSearchEngine",
            dependencies: ["FTSearchSQLite", "FTS5Segments", "FTSearchFormats", "FTSearchModels"],
            // Generates Text/LetterFoldingTable.swift.
            exclude: ["Text/generate-letter-folding.py"],
            swiftSettings: strictSettings
        ),
        // The library apps use: `SearchIndex` and `SearchIndexPool` over the engine, with the
        // store, import, export, history and maintenance.
        .target(
            name: "FTSearchKit",
            dependencies: [
                "FTSearchEngine", "FTSearchSQLite", "FTSearchFormats", "FTSearchModels",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ftsearch",
            dependencies: [
                "FTSearchKit", "FTSearchServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The command line uses the library's public API only, as any app would.
            packageAccess: false,
            swiftSettings: strictSettings,
            linkerSettings: cliLinkerSettings
        ),
        // `ftsearch serve`'s options, shared by the command users type and the server it runs.
        .target(
            name: "FTSearchServeOptions",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The HTTP API and the search page over FTSearchKit, on Hummingbird. It lives outside
        // the ftsearch binary so that the other commands do not pay for linking it at start-up
        // (docs/architecture.md: Why a second executable).
        .target(
            name: "FTSearchServer",
            dependencies: [
                "FTSearchKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/app.css"),
                .embedInCode("Page/app.js"),
                .embedInCode("Page/facets.js"),
                .embedInCode("Page/record.js"),
                .embedInCode("Page/openapi.json"),
            ],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The server process `ftsearch serve` runs.
        .executableTarget(
            name: "ftsearch-server",
            dependencies: [
                "FTSearchServer", "FTSearchServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The in-process half of scripts/bench: query and history latency through the library,
        // and the naive SQL plans it is compared with (through the SQLite wrapper).
        .executableTarget(
            name: "ftsearch-bench",
            dependencies: ["FTSearchKit", "FTSearchSQLite"],
            swiftSettings: strictSettings
        ),
        // What every test suite shares: seeded randomness, temporary folders, settings.
        .target(
            name: "FTSearchTestSupport",
            path: "Tests/FTSearchTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FTSearchKitTests",
            dependencies: [
                "FTSearchKit", "FTSearchEngine", "FTSearchFormats", "FTSearchSQLite",
                "FTSearchTestSupport",
            ],
            exclude: ["Resources"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FTS5SegmentsTests",
            dependencies: ["FTS5Segments", "FTSearchSQLite", "FTSearchTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FTSearchServerTests",
            dependencies: [
                "FTSearchServer", "FTSearchKit", "FTSearchFormats", "FTSearchTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ftsearchTests",
            dependencies: [
                "ftsearch", "FTSearchKit", "FTSearchEngine", "FTSearchFormats", "FTSearchSQLite",
                "FTSearchServeOptions",
                "FTSearchTestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
