/// Where the database lives when no path is given: where `ftsearch`, `ftsearch serve` and an
/// app that wants to share their database find it.
public enum DatabaseLocation {
    /// The database path: `explicitPath` when given, else `$FTSEARCH_DB`, else
    /// `$XDG_DATA_HOME/ftsearch/ftsearch.sqlite`, else `~/.local/share/ftsearch/ftsearch.sqlite`.
    public static func resolve(explicitPath: String? = nil, environment: [String: String])
        -> String
    {
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        if let path = environment["FTSEARCH_DB"], !path.isEmpty { return path }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return "\(dataHome)/ftsearch/ftsearch.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return "\(home)/.local/share/ftsearch/ftsearch.sqlite"
    }
}
