import MeTubeCore

/// The sizes of real YouTube feed fields, for generated data shaped like the real thing: the 105
/// entries of the Atom feeds in the project's fixtures (`shared/fixtures/youtube_atom`, eight
/// channels in six languages), in UTF-8 bytes, sorted. Descriptions: median 660, mean 1,067,
/// largest 4,743; titles: median 61, largest 113.
public enum FeedFieldSizes {
    /// `media:description` lengths.
    public static let descriptionBytes = [
        0, 15, 15, 21, 21, 24, 24, 36, 45, 45, 48, 71, 76, 79, 112, 181, 184, 198, 217, 224, 236, 243, 257, 261, 268, 268, 278,
        289, 316, 327, 348, 349, 367, 370, 381, 383, 391, 400, 402, 417, 420, 432, 433, 440, 447, 485, 537, 543, 552, 567, 614,
        654, 660, 666, 670, 673, 715, 745, 756, 766, 780, 867, 903, 933, 949, 953, 953, 980, 1013, 1014, 1072, 1075, 1075, 1075,
        1088, 1097, 1162, 1320, 1564, 1642, 1683, 1706, 1754, 1865, 1874, 1925, 1928, 2012, 2043, 2077, 2079, 2102, 2162, 2179,
        2273, 2492, 3262, 3976, 4054, 4347, 4390, 4439, 4474, 4733, 4743,
    ]
    /// Entry title lengths.
    public static let titleBytes = [
        17, 17, 18, 19, 21, 21, 24, 27, 28, 29, 31, 31, 32, 34, 35, 36, 36, 36, 36, 38, 38, 39, 40, 40, 41, 41, 42, 42, 46, 48,
        48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 56, 57, 58, 60, 60, 60, 60, 61, 62, 62, 62, 63, 63, 64, 65,
        65, 67, 67, 68, 69, 69, 70, 70, 70, 70, 71, 71, 71, 71, 72, 75, 76, 76, 78, 80, 80, 81, 82, 82, 83, 83, 84, 85, 85, 85,
        85, 86, 87, 88, 91, 93, 94, 94, 96, 97, 98, 100, 100, 104, 113,
    ]
}
