-- The trigram index on the lowercased text. pg_trgm comes with postgresql-contrib; an extension belongs to the
-- database, not to a schema, so it goes to public unless a database administrator put it elsewhere (the migrator
-- adds that schema to the search path).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX posts_search_text ON posts USING gin (search_text gin_trgm_ops);
