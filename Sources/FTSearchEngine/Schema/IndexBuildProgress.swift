/// How far building an index on first use has come (see
/// ``SearchIndex/prepareIndexes(for:of:onProgress:)``): reported once before any record is
/// indexed, then after each slice of records.
public struct IndexBuildProgress: Sendable, Equatable {
    /// What is being built, for people: "substring index".
    public var index: String
    /// The records of each kind being indexed.
    public var recordCounts: [Kind: Int]
    /// The records indexed so far, over every kind.
    public var recordsDone: Int

    /// Creates a report.
    public init(index: String, recordCounts: [Kind: Int], recordsDone: Int) {
        self.index = index
        self.recordCounts = recordCounts
        self.recordsDone = recordsDone
    }

    /// Every record being indexed, over every kind.
    public var recordCount: Int { recordCounts.values.reduce(0, +) }
}
