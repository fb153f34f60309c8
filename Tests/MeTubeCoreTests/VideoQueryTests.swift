import Foundation
import MeTubeCore
import MeTubeDemo
import TestSupport
import Testing

/// The query language: what each term means, the column of every mistake, bounded regexes, and
/// agreement with a brute-force filter over random libraries.
@Suite struct VideoQueryTests {
    private func matches(_ text: String, _ library: Library, now: Date = Date()) throws -> [String] {
        let query = try VideoQuery(parsing: text)
        var context = QueryContext(library: library, statusesKnown: true, now: now)
        return library.videos.filter { query.matches($0, in: &context) }.map(\.id)
    }

    private func column(of text: String) -> (Int, String)? {
        do {
            _ = try VideoQuery(parsing: text)
            return nil
        } catch {
            guard case let .invalidQuery(column, reason) = error else { return nil }
            return (column, reason)
        }
    }

    @Test func theLanguageAgreesWithABruteForceFilterOverRandomLibraries() throws {
        var random = SplitMix64(seed: 0x7669_6577_73)
        for round in 0..<150 {
            // Given a random library and a random query
            let sample = RandomQueryLibrary(videoCount: 1 + Int(random.next() % 120), channelCount: 1 + Int(random.next() % 6), random: &random)
            let shape = QueryShape.random(depth: Int(random.next() % 5), channelCount: 6, random: &random)
            // When the query language selects videos
            let selected = try matches(shape.description, sample.library, now: sample.now)
            // Then it selects exactly what the brute-force filter does
            let expected = sample.library.videos.filter { shape.admits($0, in: sample.library, now: sample.now) }.map(\.id)
            #expect(selected == expected, "round \(round): \(shape)")
        }
    }

    @Test func orsOfChannelIDsFoldedIntoOneSetDecideAsEachComparisonWould() throws {
        var random = SplitMix64(seed: 0x6368_616E_6E65)
        for round in 0..<150 {
            // Given a random library and a query that joins with `or` several channel ids beside
            // other operands, the channels split over two levels of parentheses, perhaps negated
            // (what a view over a share of the channels looks like)
            let sample = RandomQueryLibrary(videoCount: 1 + Int(random.next() % 120), channelCount: 2 + Int(random.next() % 6), random: &random)
            let operands: [QueryShape] = (0..<(2 + Int(random.next() % 7))).map { _ in
                random.next() % 4 == 0
                    ? .random(depth: Int(random.next() % 3), channelCount: 8, random: &random)
                    : .channel(Int(random.next() % 8), byName: false)
            }
            let split = 1 + Int(random.next() % UInt64(operands.count))
            let inner = operands[split...].map { "(\($0))" }.joined(separator: " or ")
            let joined = operands[..<split].map { "(\($0))" }.joined(separator: " or ") + (inner.isEmpty ? "" : " or (\(inner))")
            let negated = random.next() % 4 == 0
            // When the query language selects videos
            let selected = try matches(negated ? "not (\(joined))" : joined, sample.library, now: sample.now)
            // Then it selects exactly what the operands decide one by one
            let expected = sample.library.videos.filter { video in
                operands.contains { $0.admits(video, in: sample.library, now: sample.now) } != negated
            }.map(\.id)
            #expect(selected == expected, "round \(round): \(negated ? "not " : "")\(joined)")
        }
    }

    @Test func termsMeanWhatTheManualSays() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let music = Channel(id: DemoCatalog.channelID(1), title: "Band Camp", tags: ["Music"])
        let other = Channel(id: DemoCatalog.channelID(2), title: "Other")
        let videos = [
            Video(id: DemoCatalog.videoID(1), channelID: music.id, title: "Official Trailer", published: now.addingTimeInterval(-3_600), duration: 30),
            Video(id: DemoCatalog.videoID(2), channelID: music.id, title: "Long set", published: now.addingTimeInterval(-8 * 86_400), duration: 3_600),
            Video(id: DemoCatalog.videoID(3), channelID: other.id, title: "trailer (2)", published: now.addingTimeInterval(-86_400)),
        ]
        let marks = [Mark(videoID: videos[1].id, status: .watched, hlc: HybridTimestamp(millis: 1), deviceID: "d")]
        let library = Library(channels: [music, other], videos: videos, marks: marks)
        let ids = videos.map(\.id)
        #expect(try matches("tag:music", library, now: now) == [ids[0], ids[1]])
        #expect(try matches("channel:\"band camp\"", library, now: now) == [ids[0], ids[1]])
        #expect(try matches("channel:\(other.id)", library, now: now) == [ids[2]])
        #expect(try matches("title~\"^trailer\"", library, now: now) == [ids[2]])
        #expect(try matches("title~\"(?-i)trailer\"", library, now: now) == [ids[2]])
        #expect(try matches("title~\"trailer\"", library, now: now) == [ids[0], ids[2]])
        #expect(try matches("duration>10m", library, now: now) == [ids[1]])
        #expect(try matches("duration<60s", library, now: now) == [ids[0]], "unknown lengths never match")
        #expect(try matches("age<7d", library, now: now) == [ids[0], ids[2]])
        #expect(try matches("short", library, now: now) == [ids[0]])
        #expect(try matches("!short and unwatched", library, now: now) == [ids[2]])
        #expect(try matches("watched or (tag:music and not short)", library, now: now) == [ids[1]])
        #expect(try matches("pending", library, now: now) == [ids[1]])
    }

    @Test func everyMistakeNamesItsColumn() {
        let cases: [(String, Int, String)] = [
            ("unwatched and", 14, "expected a term"),
            ("unwatchd", 1, "did you mean unwatched?"),
            ("watched  tag:music", 10, "expected and, or"),
            ("(watched or skipped", 20, "to close the \"(\" at column 1"),
            ("title~\"(unclosed\"", 7, "not a valid regular expression"),
            ("title~trailer", 7, "quoted regular expression"),
            ("duration>10x", 10, "expected an amount"),
            ("duration>99999w", 10, "more than ten years"),
            ("age 7d", 5, "<, <=, >, >= or ="),
            ("tag:", 5, "expected a value"),
            ("title~\"abc", 7, "no closing"),
            ("watched & skipped", 9, "unexpected"),
            ("", 1, "empty"),
            ("short )", 7, "expected and, or"),
        ]
        for (text, column, reason) in cases {
            let error = self.column(of: text)
            #expect(error?.0 == column, "\(text): \(String(describing: error))")
            #expect(error?.1.contains(reason) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func aRegexThatExplodesIsStoppedAndReportedNotHanging() throws {
        // Given titles on which (a+)+$ backtracks catastrophically, and one it matches quickly
        let channel = Channel(id: DemoCatalog.channelID(1))
        var videos = (0..<40).map { Video(id: DemoCatalog.videoID($0), channelID: channel.id, title: String(repeating: "a", count: 90) + "!", published: Date(timeIntervalSince1970: Double($0))) }
        videos.append(Video(id: DemoCatalog.videoID(99), channelID: channel.id, title: "aaa", published: Date(timeIntervalSince1970: 1_000)))
        let library = Library(channels: [channel], videos: videos)
        let query = try VideoQuery(parsing: "title~\"(a+)+$\"")
        // When every title is evaluated
        var context = QueryContext(library: library, statusesKnown: true)
        let matched = library.videos.filter { query.matches($0, in: &context) }.map(\.id)
        // Then the quick one matches, the others are stopped (and counted), and none hangs
        #expect(matched == [DemoCatalog.videoID(99)])
        #expect(context.stoppedRegexes == 40)
        #expect(BoundedRegex("(a+)+$")?.firstMatch(in: String(repeating: "a", count: 90) + "!") == .stopped)
    }

    @Test func extremesParseAndEvaluate() throws {
        // A 10 KB query
        let terms = (0..<900).map { "tag:t\($0)" }.joined(separator: " or ")
        #expect(terms.utf8.count > 10_000)
        var random = SplitMix64(seed: 7)
        let library = RandomQueryLibrary(videoCount: 50, channelCount: 3, random: &random).library
        #expect(try matches(terms, library).isEmpty)
        #expect(try matches("not (\(terms))", library).count == 50)
        // Nesting past the limit is refused with a column, not a stack overflow
        let deep = String(repeating: "(", count: 5_000) + "short" + String(repeating: ")", count: 5_000)
        #expect(column(of: deep)?.1.contains("nested more than") == true)
        let nots = String(repeating: "!", count: 5_000) + "short"
        #expect(column(of: nots)?.1.contains("nested more than") == true)
        // An over-long query is refused
        #expect(column(of: String(repeating: "short or ", count: 3_000) + "short")?.1.contains("at most") == true)
    }
}
