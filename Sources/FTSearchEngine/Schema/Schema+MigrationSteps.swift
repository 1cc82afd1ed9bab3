import FTSearchSQLite

/// The code steps of shipped migrations, frozen with them: each calls nothing outside this
/// file and Schema.swift but the SQLite wrapper, so that what a migration did stays what it did.
extension Schema {
    /// Migration 8's history keys, folded again by the `ftsearch` tokenizer as the history
    /// folded them when it shipped: each token replaced by its folded text, other characters
    /// kept, white space trimmed and collapsed. Entries whose keys become equal are merged into
    /// the most recently used one, their counts added, the first use the earliest.
    static func refoldHistoryKeysForMigration8(_ database: Database) throws {
        let tokenizer = try FTS5Tokenizer(database: database, name: "ftsearch")
        func key(of text: String) -> String {
            let utf8 = Array(text.utf8)
            var folded: [UInt8] = []
            var position = 0
            for token in tokenizer.tokens(in: text) {
                folded += utf8[position..<token.sourceRange.lowerBound]
                folded += token.text.utf8
                position = token.sourceRange.upperBound
            }
            folded += utf8[position...]
            return String(decoding: folded, as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        var entries: [(id: Int64, key: String, uses: Int, firstUsed: String)] = []
        try database.makeStatement(
            sql: """
                SELECT id, key, text, use_count, first_used FROM history
                ORDER BY last_used DESC, id DESC
                """
        ).forEachRow { row in
            let text = row.text(at: 2) ?? ""
            let folded = key(of: text)
            entries.append(
                (
                    row.int64(at: 0), folded.isEmpty ? row.text(at: 1) ?? "" : folded,
                    row.int(at: 3), row.text(at: 4) ?? ""
                ))
        }
        var survivors: [String: Int] = [:]
        var merged: [Int64] = []
        var kept: [(id: Int64, key: String, uses: Int, firstUsed: String)] = []
        for entry in entries {
            if let survivor = survivors[entry.key] {
                kept[survivor].uses += entry.uses
                kept[survivor].firstUsed = min(kept[survivor].firstUsed, entry.firstUsed)
                merged.append(entry.id)
            } else {
                survivors[entry.key] = kept.count
                kept.append(entry)
            }
        }
        let delete = try database.makeStatement(sql: "DELETE FROM history WHERE id = ?1")
        for id in merged {
            try delete.execute([id])
        }
        // Every key is first made unique by its id, so that no new key meets an old one.
        try database.execute(sql: "UPDATE history SET key = char(0) || id")
        let update = try database.makeStatement(
            sql: "UPDATE history SET key = ?2, use_count = ?3, first_used = ?4 WHERE id = ?1")
        for entry in kept {
            try update.execute([entry.id, entry.key, entry.uses, entry.firstUsed])
        }
    }

    /// Migration 10's filling of the sizes tables, as it shipped: each word index's docsize
    /// rows in id order, a block of 2,048 bytes written for every 2,048 ids that have one; a
    /// byte is the row's total when its docsize blob has one byte per column and the total is
    /// below 255, else 255.
    static func fillRowSizesForMigration10(_ database: Database) throws {
        for (index, columns) in [("people_fts", 3), ("animals_fts", 1)] {
            let write = try database.makeStatement(
                sql: "INSERT INTO \(index)_sizes(block, sizes) VALUES (?1, ?2)")
            var block: Int64?
            var bytes = [UInt8](repeating: 0, count: 2048)
            try database.makeStatement(sql: "SELECT id, sz FROM \(index)_docsize ORDER BY id")
                .forEachRow { row in
                    let id = row.int64(at: 0)
                    if let block, id >> 11 != block {
                        try write.execute([block, bytes])
                        bytes = [UInt8](repeating: 0, count: 2048)
                    }
                    block = id >> 11
                    let sizes = row.bytes(at: 1)
                    let total = sizes.reduce(0) { $0 + Int($1) }
                    bytes[Int(id & 2047)] =
                        sizes.count == columns && total < 255 ? UInt8(total) : 255
                }
            if let block { try write.execute([block, bytes]) }
        }
    }

    /// Migration 12's filling of the sort codes tables, as it shipped: each kind's records in
    /// id order, a block of 1,536 bytes written for every 512 ids that have one, each record's
    /// code (three bytes from `ftsearch_sort_code`) at `(id & 511) * 3`.
    static func fillSortCodesForMigration12(_ database: Database) throws {
        for (table, key) in [("people", "last_name || ' ' || first_name"), ("animals", "name")] {
            let write = try database.makeStatement(
                sql: "INSERT INTO \(table)_sort_codes(block, codes) VALUES (?1, ?2)")
            var block: Int64?
            var bytes = [UInt8](repeating: 0, count: 1536)
            try database.makeStatement(
                sql: "SELECT id, ftsearch_sort_code(\(key)) FROM \(table) ORDER BY id"
            ).forEachRow { row in
                let id = row.int64(at: 0)
                if let block, id >> 9 != block {
                    try write.execute([block, bytes])
                    bytes = [UInt8](repeating: 0, count: 1536)
                }
                block = id >> 9
                let offset = Int(id & 511) * 3
                bytes.replaceSubrange(offset..<offset + 3, with: row.bytes(at: 1))
            }
            if let block { try write.execute([block, bytes]) }
        }
    }

    /// Migration 4's re-indexing, as it shipped: every row of both kinds into the new word
    /// indexes, 50,000 rows a statement, with FTS5 set for bulk writing meanwhile (no automerge,
    /// an 8 MiB hash, crisis merges at 64 segments) and FTS5's defaults stored afterwards.
    static func reindexEveryRowForMigration4(
        _ database: Database, onProgress: (MigrationProgress) -> Void
    ) throws {
        let kinds = [("people", "first_name, last_name, company"), ("animals", "name")]
        let total = try kinds.reduce(0) {
            $0 + (try database.fetchInt(sql: "SELECT count(*) FROM \($1.0)") ?? 0)
        }
        let settings = [
            ("automerge", 0, 4), ("hashsize", 8 << 20, 1 << 20), ("crisismerge", 64, 16),
        ]
        var done = 0
        for (table, columns) in kinds {
            let index = "\(table)_fts"
            for (setting, bulk, _) in settings {
                try database.execute(
                    sql: "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting)', \(bulk))")
            }
            let slice = try database.makeStatement(
                sql: """
                    INSERT INTO \(index)(rowid, \(columns))
                    SELECT id, \(columns) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)
                    """)
            let count = try database.makeStatement(
                sql: "SELECT count(*) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)")
            let boundary = try database.makeStatement(
                sql: "SELECT id FROM \(table) WHERE id >= ?1 ORDER BY id LIMIT 1 OFFSET 50000")
            var lower = Int64.min
            while true {
                let upper = try boundary.firstRow([lower]) { $0.int64(at: 0) }
                try slice.execute([lower, upper])
                done += try count.firstRow([lower, upper]) { $0.int(at: 0) } ?? 0
                onProgress(MigrationProgress(done: done, total: total))
                guard let upper else { break }
                lower = upper
            }
            for (setting, _, standard) in settings {
                try database.execute(
                    sql: "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting)', \(standard))")
            }
        }
    }
}
