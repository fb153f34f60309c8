/// The version of metube and metube-server: the one place it is written.
public enum MeTubeVersion {
    /// The version, as `--version` prints it.
    public static let current = "0.2.0"
}
