-- Posts of one store (a store is a schema; the migrator sets the search path to it).
-- Title and body are kept as their UTF-8 bytes: text cannot hold NUL characters, which every engine returns
-- exactly as stored, and bytea compares byte by byte, which for UTF-8 is code-point order (the order every engine
-- sorts titles in, whatever the database's collation). search_text is the title and the body lowercased by Swift,
-- NUL characters left out, for the trigram index to find candidates that the store then checks exactly.
-- Statements end with a semicolon at the end of a line: the migrator runs them one at a time.
CREATE TABLE posts (
    id bigint PRIMARY KEY,
    user_id bigint NOT NULL,
    title bytea NOT NULL,
    body bytea NOT NULL,
    search_text text NOT NULL
);

CREATE INDEX posts_user_id ON posts (user_id, id);
