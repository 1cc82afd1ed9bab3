/// The version of ftsearch: what `ftsearch --version` prints and the server reports.
public enum FTSearchVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
}
