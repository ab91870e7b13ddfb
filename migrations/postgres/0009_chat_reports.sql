-- Players report chat messages they find offensive; the host reads the reports
-- (GET /api/admin/reports) and erases the writer or dismisses them. One report per reader and message.
CREATE TABLE chat_reports (
    room_id     TEXT NOT NULL,
    seq         BIGINT NOT NULL,
    reporter_id TEXT NOT NULL REFERENCES players (id),
    reason      TEXT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (room_id, seq, reporter_id),
    FOREIGN KEY (room_id, seq) REFERENCES chat_messages (room_id, seq) ON DELETE CASCADE
);
CREATE INDEX chat_reports_at_idx ON chat_reports (at);
