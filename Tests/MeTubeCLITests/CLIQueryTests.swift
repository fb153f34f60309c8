import Foundation
import MeTubeCore
import MeTubeDemo
import MeTubeStore
import TestSupport
import Testing

/// `metube list --query` and `--view`, and saved views and rules in the config file.
@Suite struct CLIQueryTests {
    let metube = ProductBinary.url("metube")

    /// Runs `metube` on the store in `directory` with the config file `config`.
    private func run(_ arguments: [String], config: String = "", in directory: TemporaryDirectory) throws -> ProcessOutcome {
        try config.write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        return try runProcess(metube, arguments + ["--data-dir", directory.path("store")],
                              environment: ["METUBE_CONFIG": directory.path("config.toml"), "XDG_CONFIG_HOME": directory.path("xdg-config")])
    }

    private func listedIDs(_ outcome: ProcessOutcome) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return (object?["videos"] as? [[String: Any]])?.compactMap { $0["videoId"] as? String } ?? []
    }

    private func seed(_ library: Library, in directory: TemporaryDirectory) throws {
        let store = try Store.open(at: URL(fileURLWithPath: directory.path("store"), isDirectory: true))
        try store.apply(StoreChange(marks: library.marks.map { $0 }, videos: library.videos, channels: Array(library.channels.values), positions: Array(library.playbackPositions.values)))
    }

    @Test func listQueryAgreesWithABruteForceFilterOverRandomLibraries() throws {
        var random = SplitMix64(seed: 0x6C69_7374)
        for round in 0..<25 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            // Given a random library in a store, and a random query
            let sample = RandomQueryLibrary(videoCount: 1 + Int(random.next() % 200), channelCount: 1 + Int(random.next() % 6), random: &random)
            try seed(sample.library, in: directory)
            let shape = QueryShape.random(depth: Int(random.next() % 4), channelCount: 6, withAge: false, random: &random)
            // When metube lists what the query selects
            let outcome = try run(["list", "--query", shape.description, "--json"], in: directory)
            // Then it lists exactly what the brute-force filter selects, in feed order
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let expected = sample.library.videos.filter { shape.admits($0, in: sample.library, now: sample.now) }.map(\.id)
            #expect(try listedIDs(outcome) == expected, "round \(round): \(shape)")
        }
    }

    @Test func aBadQueryExits65PointingAtTheColumn() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var random = SplitMix64(seed: 1)
        try seed(RandomQueryLibrary(videoCount: 10, channelCount: 2, random: &random).library, in: directory)
        for (query, column, reason) in [("unwatched and tga:music", 15, "did you mean tag?"), ("title~\"(a\"", 7, "not a valid regular expression"), ("short or", 9, "expected a term")] {
            let outcome = try run(["list", "--query", query], in: directory)
            #expect(outcome.status == 65, "\(query)")
            #expect(outcome.stderr.contains("column \(column)"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains(reason), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("metube:   " + String(repeating: " ", count: column - 1) + "^"), "\(outcome.stderr)")
        }
    }

    @Test func savedViewsAndHideRulesComeFromTheConfigFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a music channel, another, and videos of each, one a trailer
        let now = Date()
        let music = Channel(id: DemoCatalog.channelID(1), title: "Band", tags: ["music"])
        let other = Channel(id: DemoCatalog.channelID(2), title: "Other")
        let videos = [
            Video(id: DemoCatalog.videoID(1), channelID: music.id, title: "New song", published: now.addingTimeInterval(-60), duration: 200),
            Video(id: DemoCatalog.videoID(2), channelID: music.id, title: "Album trailer", published: now.addingTimeInterval(-120), duration: 90),
            Video(id: DemoCatalog.videoID(3), channelID: other.id, title: "Talk", published: now.addingTimeInterval(-180), duration: 3_000),
        ]
        try seed(Library(channels: [music, other], videos: videos), in: directory)
        let config = """
            [views.music]
            query = "tag:music"

            [views.long]
            query = "duration>30m"

            [[rules]]
            name = "no trailers"
            query = 'title~"trailer"'
            action = "hide"
            """
        let ids = videos.map(\.id)
        // Then a saved view lists its query's videos, without what a rule hides
        #expect(try listedIDs(run(["list", "--view", "music", "--json"], config: config, in: directory)) == [ids[0]])
        #expect(try listedIDs(run(["list", "--view", "long", "--json"], config: config, in: directory)) == [ids[2]])
        // And built-in views are views too; only `all` shows what is hidden
        #expect(try listedIDs(run(["list", "--view", "unwatched", "--json"], config: config, in: directory)) == [ids[0], ids[2]])
        #expect(try listedIDs(run(["list", "--view", "all", "--json"], config: config, in: directory)) == ids)
        // And an unknown view is named with the nearest one
        let unknown = try run(["list", "--view", "musik"], config: config, in: directory)
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("did you mean music?"), "\(unknown.stderr)")
    }

    @Test func aBadViewOrRuleInTheConfigFileNamesItsLineAndColumn() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cases = [
            ("[views.music]\nquery = \"tag:music and\"\n", "config.toml:1: [views.music] query: query: column 14"),
            ("[views.all]\nquery = \"short\"\n", "all is a built-in view"),
            ("[[rules]]\nquery = \"short\"\naction = \"hide\"\n\n[[rules]]\nquery = \"short\"\naction = \"delete\"\n", "config.toml:5: [[rules]] #2 action: must be \"skip\" or \"hide\""),
            ("[[rules]]\nquery = \"title~\\\"(\\\"\"\naction = \"skip\"\n", "not a valid regular expression"),
        ]
        for (config, message) in cases {
            let outcome = try run(["list"], config: config, in: directory)
            #expect(outcome.status == 65, "\(config)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }

    @Test func aThousandRulesAndAViewOverEverythingOrNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var random = SplitMix64(seed: 2)
        let sample = RandomQueryLibrary(videoCount: 300, channelCount: 4, random: &random)
        try seed(sample.library, in: directory)
        // Given 1,000 rules that hide nothing, and views matching everything and nothing
        let rules = (0..<1_000).map { "[[rules]]\nquery = \"tag:none\($0)\"\naction = \"hide\"\n" }.joined(separator: "\n")
        let config = "[views.everything]\nquery = \"short or !short\"\n\n[views.nothing]\nquery = \"short and !short\"\n\n" + rules
        // Then the views list everything and nothing
        #expect(try listedIDs(run(["list", "--view", "everything", "--json"], config: config, in: directory)).count == 300)
        #expect(try listedIDs(run(["list", "--view", "nothing", "--json"], config: config, in: directory)).isEmpty)
    }

    /// The lines of the store's journals (`journal-N.jsonl`).
    private func journalLines(_ directory: TemporaryDirectory) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path("store")).filter { $0.hasPrefix("journal-") && $0.hasSuffix(".jsonl") }
        return try names.reduce(0) { $0 + (try String(contentsOfFile: directory.path("store/\($1)"), encoding: .utf8).split(separator: "\n").count) }
    }

    @Test func markQueryMarksEverySelectedVideoInOneWrite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var random = SplitMix64(seed: 3)
        let sample = RandomQueryLibrary(videoCount: 150, channelCount: 4, random: &random)
        try seed(sample.library, in: directory)
        let linesBefore = try journalLines(directory)
        // When every Short that is not skipped yet is marked skipped
        let outcome = try run(["mark", "--query", "short", "skipped", "--json"], in: directory)
        // Then each is skipped, in one journal line, and the count says how many changed
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let shorts = sample.library.videos.filter(\.isShort)
        let already = shorts.filter { sample.library.marks[$0.id]?.status == .skipped }.count
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(object?["marked"] as? Int == shorts.count - already)
        #expect(object?["unchanged"] as? Int == already)
        let marks = try Store.open(at: URL(fileURLWithPath: directory.path("store"))).library().marks
        #expect(shorts.allSatisfy { marks[$0.id]?.status == .skipped })
        #expect(try journalLines(directory) == linesBefore + 1)
        // And a bad query exits 65 and changes nothing
        #expect(try run(["mark", "--query", "shrt", "skipped"], in: directory).status == 65)
        #expect(try run(["mark", "--query", "short"], in: directory).status == 64)
    }

    @Test func rulesTestExplainsConflictsAndApplyAllSkipsUnmarkedVideosNamingTheRule() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given three videos, one marked by the user, and a hide rule written before a skip rule
        let now = Date()
        let channel = Channel(id: DemoCatalog.channelID(1), title: "Studio")
        let videos = (1...3).map { Video(id: DemoCatalog.videoID($0), channelID: channel.id, title: "Trailer \($0)", published: now.addingTimeInterval(-Double($0) * 60)) }
        let userMark = Mark(videoID: videos[2].id, status: .watched, hlc: HybridTimestamp(millis: 1), deviceID: "me")
        try seed(Library(channels: [channel], videos: videos + [Video(id: DemoCatalog.videoID(9), channelID: channel.id, title: "Other", published: now)], marks: [userMark]), in: directory)
        let config = """
            [[rules]]
            name = "hide the first"
            query = 'title~"trailer 1"'
            action = "hide"

            [[rules]]
            name = "no trailers"
            query = 'title~"trailer"'
            action = "skip"
            """
        // When the rules are tested
        let test = try run(["rules", "test"], config: config, in: directory)
        // Then each rule's matches, the earlier rule that takes one, and the marked one are shown
        #expect(test.status == 0, "\(test.stderr)")
        #expect(test.stdout.contains("1. hide the first (hide): title~\"trailer 1\""), "\(test.stdout)")
        #expect(test.stdout.contains("matches 3 videos; decides 2: new ones get skipped; 1 already marked (left alone), 1 unmarked"), "\(test.stdout)")
        #expect(test.stdout.contains("1 taken by rule 1, hide the first (hide), written earlier"), "\(test.stdout)")
        // When they are applied to the whole library
        let apply = try run(["rules", "apply", "--all", "--yes"], config: config, in: directory)
        #expect(apply.stdout.contains("skipped 1 video"), "\(apply.stdout) \(apply.stderr)")
        // Then only the unmarked trailer no earlier rule hides is skipped, saying by which rule
        let listed = try run(["list", "--view", "all", "--json"], config: config, in: directory)
        let rows = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])?["videos"] as? [[String: Any]] ?? []
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["videoId"] as? String ?? "", $0) })
        #expect(byID[videos[1].id]?["status"] as? String == "skipped")
        #expect(byID[videos[1].id]?["rule"] as? String == "no trailers")
        #expect(byID[videos[0].id]?["status"] as? String == "unwatched")
        #expect(byID[videos[2].id]?["status"] as? String == "watched")
        #expect(byID[videos[2].id]?["rule"] == nil)
    }
}
