import Foundation
import MeTubeCore
@testable import MeTubePlayer
import TestSupport
import Testing

/// What comes over mpv's socket is hostile until checked: only finite seconds in range and real
/// flags become properties; everything else is ignored or counted as garbage.
@Suite struct MPVMessageTests {
    private func parse(_ text: String) -> MPVMessage.Parsed { MPVMessage.parse(Data(text.utf8)) }

    @Test func followedPropertiesAreRead() {
        #expect(parse(#"{"event":"property-change","id":1,"name":"time-pos","data":12.5}"#) == .property(.timePosition(12.5)))
        #expect(parse(#"{"event":"property-change","id":2,"name":"duration","data":600}"#) == .property(.duration(600)))
        #expect(parse(#"{"event":"property-change","id":3,"name":"pause","data":true}"#) == .property(.paused(true)))
        #expect(parse(#"{"event":"property-change","id":4,"name":"eof-reached","data":false}"#) == .property(.endOfFile(false)))
        #expect(parse(#"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#) == .property(.endOfFile(true)))
    }

    @Test func repliesOtherEventsAndMissingValuesAreIgnored() {
        #expect(parse(#"{"request_id":0,"error":"success"}"#) == .ignored)
        #expect(parse(#"{"event":"video-reconfig"}"#) == .ignored)
        #expect(parse(#"{"event":"property-change","id":1,"name":"time-pos"}"#) == .ignored)
        #expect(parse(#"{"event":"property-change","id":1,"name":"time-pos","data":null}"#) == .ignored)
        #expect(parse(#"{"event":"end-file","reason":"quit"}"#) == .ignored)
        #expect(parse(#"{"event":"property-change","name":"volume","data":100}"#) == .ignored)
    }

    @Test func garbageAndOutOfRangeValuesAreRejected() {
        for line in [
            "not json", "[1,2]", "", "{\"event\":", String(repeating: " ", count: MPVMessage.maxLineBytes + 1),
            #"{"event":"property-change","name":"time-pos","data":-1}"#,
            #"{"event":"property-change","name":"time-pos","data":1e300}"#,
            #"{"event":"property-change","name":"duration","data":8640001}"#,
            #"{"event":"property-change","name":"time-pos","data":"12"}"#,
            #"{"event":"property-change","name":"time-pos","data":true}"#,
            #"{"event":"property-change","name":"pause","data":1}"#,
            #"{"event":"property-change","name":"eof-reached","data":{"x":1}}"#,
        ] {
            #expect(parse(line) == .garbage, "\(line.prefix(80))")
        }
    }

    @Test func theCommandLinePassesTheSocketAndTheStartAfterTheTemplate() {
        let command = MPVCommand(template: "mpv --no-terminal {url}")
        let arguments = command.arguments(url: "https://www.youtube.com/watch?v=a'b", socketPath: "/run/user/1/metube/x.sock", startSeconds: 95.5)
        #expect(arguments == ["-c", #"exec mpv --no-terminal 'https://www.youtube.com/watch?v=a'\''b' "$@""#, "mpv",
                              "--input-ipc-server=/run/user/1/metube/x.sock", "--start=95.500"])
        #expect(MPVCommand(template: nil).template == "mpv {url}")
        #expect(MPVCommand(template: "  ").template == "mpv {url}")
        #expect(MPVCommand.secondsText(.nan) == nil && MPVCommand.secondsText(-1) == nil)
    }

    @Test func theSocketGoesToTheRuntimeDirectoryElseTheStateDirectory() {
        #expect(PlayerSocketDirectory.url(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]).path == "/run/user/7/metube")
        #expect(PlayerSocketDirectory.url(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/metube")
        #expect(PlayerSocketDirectory.url(environment: ["XDG_RUNTIME_DIR": "relative", "XDG_STATE_HOME": "/s"]).path == "/s/metube")
    }

    @Test func anExistingWiderSocketFolderIsNarrowedWhenAPlayerStarts() throws {
        // Given a socket folder that exists with mode 0755
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("metube")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])

        // When a player's socket path is made there
        let path = try PlayerSocketDirectory.newSocketPath(in: folder)

        // Then the folder is private to the user again
        #expect(path.hasPrefix(folder.path + "/mpv-"))
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == 0o700)
    }
}
