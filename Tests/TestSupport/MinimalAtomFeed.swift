/// YouTube-shaped Atom feeds for loopback feed servers.
public enum MinimalAtomFeed {
    /// A feed of `channelID` with one upload, `videoID`.
    public static func text(channelID: String, videoID: String) -> String {
        """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
             <id>yt:channel:\(channelID.dropFirst(2))</id>
             <yt:channelId>\(channelID.dropFirst(2))</yt:channelId>
             <title>Channel \(channelID)</title>
             <author><name>Channel \(channelID)</name><uri>https://www.youtube.com/channel/\(channelID)</uri></author>
             <entry>
              <id>yt:video:\(videoID)</id>
              <yt:videoId>\(videoID)</yt:videoId>
              <yt:channelId>\(channelID)</yt:channelId>
              <title>Upload of \(channelID)</title>
              <link rel="alternate" href="https://www.youtube.com/watch?v=\(videoID)"/>
              <published>2026-11-01T12:00:00+00:00</published>
              <updated>2026-11-01T12:00:00+00:00</updated>
             </entry>
            </feed>

            """
    }

    /// A channel feed of `channelID` whose title is `title` (XML text, escaped by the caller)
    /// around `entries`, each an `<entry>` element as YouTube writes it.
    public static func channel(_ channelID: String, title: String, entries: [String]) -> String {
        """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
             <id>yt:channel:\(channelID.dropFirst(2))</id>
             <yt:channelId>\(channelID.dropFirst(2))</yt:channelId>
             <title>\(title)</title>

            """ + entries.joined() + "</feed>\n"
    }

    /// A Shorts playlist feed (`playlist_id=UUSH…`) of `channelID` in the shape of a real playlist
    /// feed, listing `entries` (a video id and the channel the entry names) in order.
    public static func shortsPlaylist(channelID: String, entries: [(videoID: String, channelID: String)]) -> String {
        let playlistID = "UUSH" + channelID.dropFirst(2)
        let items = entries.map { entry in
            """
             <entry>
              <id>yt:video:\(entry.videoID)</id>
              <yt:videoId>\(entry.videoID)</yt:videoId>
              <yt:channelId>\(entry.channelID)</yt:channelId>
              <title>Short \(entry.videoID)</title>
              <link rel="alternate" href="https://www.youtube.com/watch?v=\(entry.videoID)"/>
              <published>2026-11-01T12:00:00+00:00</published>
             </entry>

            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
             <link rel="self" href="http://www.youtube.com/feeds/videos.xml?playlist_id=\(playlistID)"/>
             <id>yt:playlist:\(playlistID)</id>
             <yt:playlistId>\(playlistID)</yt:playlistId>
             <yt:channelId>\(channelID)</yt:channelId>
             <title>Short videos</title>

            """ + items.joined() + "</feed>\n"
    }
}
