// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "metube",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "metube", targets: ["metube"]),
        .executable(name: "metube-server", targets: ["metube-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.6"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "MeTubeJSON"),
        .target(
            name: "MeTubeCore",
            dependencies: [
                "MeTubeJSON",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "MeTubeFeeds", dependencies: ["MeTubeCore", "MeTubeJSON"]),
        .target(name: "MeTubeDownloads", dependencies: ["MeTubeCore"]),
        .target(name: "MeTubeDemo", dependencies: ["MeTubeCore", "MeTubeFeeds"]),
        .target(name: "MeTubeStore", dependencies: ["MeTubeCore", "MeTubeJSON"]),
        .target(
            name: "MeTubeYouTube",
            dependencies: [
                "MeTubeCore", "MeTubeDownloads", "MeTubeFeeds", "MeTubeJSON", "MeTubeTransfer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(name: "MeTubeAPI"),
        .target(
            name: "MeTubeTransfer",
            dependencies: [
                "MeTubeCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        .target(
            name: "MeTubeSync",
            dependencies: [
                "MeTubeCore", "MeTubeFeeds", "MeTubeStore", "MeTubeAPI", "MeTubeJSON", "MeTubeTransfer", "MeTubeYouTube",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .target(
            name: "MeTubeSponsorBlock",
            dependencies: [
                "MeTubeCore", "MeTubeStore", "MeTubeTransfer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(name: "MeTubePlayer", dependencies: ["MeTubeCore", "MeTubeStore"]),
        .target(
            name: "MeTubeThumbnails",
            dependencies: [
                "MeTubeCore", "CChafa", "CTurboJPEG",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(name: "MeTubeTUI", dependencies: ["MeTubeCore", "MeTubeDownloads", "MeTubeFeeds", "MeTubeStore", "MeTubeSync", "MeTubePlayer", "MeTubeThumbnails", "CNcursesw"]),
        .target(
            name: "MeTubeServer",
            dependencies: [
                "MeTubeCore", "MeTubeFeeds", "MeTubeAPI", "MeTubeJSON", "MeTubeYouTube",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .target(
            name: "MeTubeDemoServer",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeServer", "MeTubeThumbnails",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "metube",
            dependencies: [
                "MeTubeCore", "MeTubeDownloads", "MeTubeFeeds", "MeTubeAPI", "MeTubeStore", "MeTubeSponsorBlock", "MeTubeSync", "MeTubeTUI", "MeTubePlayer", "MeTubeThumbnails", "MeTubeYouTube",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "metube-server",
            dependencies: [
                "MeTubeCore", "MeTubeDemoServer", "MeTubeServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "metube-bench",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeDemoServer", "MeTubeDownloads", "MeTubeFeeds", "MeTubeAPI", "MeTubeStore", "MeTubeSync", "MeTubeTUI", "MeTubePlayer", "MeTubeServer", "MeTubeThumbnails", "MeTubeYouTube", "TestSupport", "ServerTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .executableTarget(
            name: "metube-bench-probe",
            dependencies: ["MeTubeCore", "MeTubeStore", "MeTubeSync", "TestSupport"]
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeStore", "MeTubeAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/TestSupport",
            exclude: ["YTDLPStandIn"]
        ),
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "MeTubeAPI", "MeTubeServer", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        .testTarget(name: "MeTubeCoreTests", dependencies: ["MeTubeCore", "MeTubeDemo", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "MeTubeFeedsTests",
            dependencies: ["MeTubeCore", "MeTubeDemo", "MeTubeFeeds", .product(name: "Clocks", package: "swift-clocks")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "MeTubeJSONTests", dependencies: ["MeTubeJSON", "MeTubeCore"]),
        .testTarget(
            name: "MeTubeTransferTests",
            dependencies: [
                "MeTubeTransfer", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "MeTubeYouTubeTests", dependencies: ["MeTubeDownloads", "MeTubeFeeds", "MeTubeYouTube", "MeTubeCore", "MeTubeJSON", "MeTubeTransfer", "TestSupport"]),
        .testTarget(name: "MeTubeStoreTests", dependencies: ["MeTubeCore", "MeTubeJSON", "MeTubeStore", "TestSupport"]),
        .testTarget(name: "MeTubeAPITests", dependencies: ["MeTubeAPI"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "MeTubeServerTests",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeFeeds", "MeTubeAPI", "MeTubeServer", "MeTubeYouTube", "TestSupport", "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(
            name: "MeTubeDemoServerTests",
            dependencies: [
                "MeTubeAPI", "MeTubeCore", "MeTubeDemo", "MeTubeDemoServer", "MeTubeServer", "MeTubeThumbnails", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MeTubeSyncTests",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeDemoServer", "MeTubeFeeds", "MeTubeAPI", "MeTubeJSON", "MeTubeStore", "MeTubeSync", "MeTubeServer", "MeTubeTransfer", "MeTubeYouTube", "TestSupport", "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(
            name: "MeTubeTUITests",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeDownloads", "MeTubeFeeds", "MeTubeStore", "MeTubeSync", "MeTubeTUI", "MeTubePlayer", "MeTubeThumbnails", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "MeTubeCLITests",
            dependencies: [
                "MeTubeCore", "MeTubeDemo", "MeTubeDownloads", "MeTubeFeeds", "MeTubeStore", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MeTubeThumbnailsTests",
            dependencies: ["MeTubeThumbnails", "TestSupport", .product(name: "Hummingbird", package: "hummingbird")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "MeTubePlayerTests", dependencies: ["MeTubeCore", "MeTubePlayer", "MeTubeSponsorBlock", "MeTubeStore", "TestSupport"]),
        .testTarget(name: "MeTubeSponsorBlockTests", dependencies: ["MeTubeCore", "MeTubeSponsorBlock", "MeTubeStore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
