-- user_version 1
-- index history_by_last_use
CREATE INDEX history_by_last_use ON history(last_used);
-- index sqlite_autoindex_history_1
;
-- table history
CREATE TABLE history (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL,
    kind TEXT NOT NULL,
    result_count INTEGER NOT NULL,
    use_count INTEGER NOT NULL DEFAULT 1,
    first_used TEXT NOT NULL,
    last_used TEXT NOT NULL
);
