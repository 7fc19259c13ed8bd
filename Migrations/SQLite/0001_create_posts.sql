-- The posts themselves, one row per JSONPlaceholder record.
CREATE TABLE posts (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    title   TEXT    NOT NULL,
    body    TEXT    NOT NULL
) STRICT;

CREATE INDEX posts_user_id ON posts (user_id, id);
