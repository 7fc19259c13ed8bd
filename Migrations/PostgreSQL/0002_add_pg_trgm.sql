-- pg_trgm, for the trigram index on the lowercased text. It comes with postgresql-contrib; an extension belongs to
-- the database, not to a schema, so it goes to public unless a database administrator put it elsewhere (the
-- migrator adds that schema to the search path). The index itself is built by the write that first fills the
-- store, after its posts are in (building a GIN index costs a fraction of filling one row by row); see
-- PostgresSearchIndex.swift.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
