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
}
