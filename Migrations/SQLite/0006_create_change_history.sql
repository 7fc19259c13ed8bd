-- The changes feed's bookkeeping: the revision of the write that last wrote each post, a tombstone for each deleted
-- post, and what each write overwrote. Posts written before this migration carry revision 0 and the history begins
-- at the store's revision now, 'change_floor': a token from before it must refetch. 'change_history_limit' is how
-- many writes back the history reaches at least; older tombstones and write records are dropped.
ALTER TABLE posts ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE INDEX posts_revision ON posts (revision);

CREATE TABLE post_tombstones (
    id       INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL
) STRICT;

CREATE INDEX post_tombstones_revision ON post_tombstones (revision);

-- One row for each write that replaced or deleted versions: the lowest and highest revision among them, so that an
-- answer of the feed never stops between a version and the write that overwrote it.
CREATE TABLE post_writes (
    revision        INTEGER PRIMARY KEY,
    overwrote_first INTEGER NOT NULL,
    overwrote_last  INTEGER NOT NULL
) STRICT;

INSERT INTO poststore_settings (key, value)
    SELECT 'change_floor', value FROM poststore_settings WHERE key = 'revision';
INSERT INTO poststore_settings (key, value) VALUES ('change_history_limit', '1000000');

-- The token of the source's feed a sync's posts stand at (its checkpoint), cleared as the ETag is.
ALTER TABLE sync_state ADD COLUMN change_token TEXT;
