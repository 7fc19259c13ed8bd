#ifndef POSTSTORE_CLIMIT_H
#define POSTSTORE_CLIMIT_H

// "The limit": the fastest reasonable C pipeline from a JSONPlaceholder posts file to SQLite, the yardstick that
// PostStore's Swift sync is measured against. It does only what a sync must do (read, parse, upsert, prune, index) and
// nothing a library must (no model objects, no validation beyond not crashing, no logging, no configuration).

#ifdef __cplusplus
extern "C" {
#endif

/// What one `climit_sync` call did.
typedef struct {
    /// Records parsed from the file.
    long long posts_read;
    /// The sum of `sqlite3_changes()` over the upserts: rows inserted plus rows actually updated (an upsert whose
    /// values equal the stored row writes nothing and counts 0).
    long long rows_written;
    /// Rows deleted by the prune (0 when it was not asked for).
    long long rows_deleted;
    /// Wall time of the whole call on `CLOCK_MONOTONIC`, reading the file included; set on failure too.
    double seconds;
    /// Empty on success, else a one-line message saying what failed.
    char error[512];
} climit_result;

/// Syncs the posts of a JSON file into a SQLite database in one transaction.
///
/// Reads the whole file at `json_path` (a JSON array of objects with the keys `userId`, `id`, `title` and `body` in any
/// order; other keys are skipped), opens the database at `db_path` (creating it if needed) in WAL mode with
/// `synchronous = NORMAL`, and inside one `BEGIN IMMEDIATE` transaction:
/// 1. upserts every post with one prepared statement reused for every row; a row whose values are unchanged is not
///    written;
/// 2. if `prune` is nonzero, deletes the rows whose id is not in the file;
/// 3. if `search_index_sql` is not NULL, rebuilds that FTS5 index in bulk: `'delete-all'`, then one
///    `INSERT … SELECT id, lower(title), lower(body) FROM posts` with automatic merging off, and one `'optimize'`
///    (as PostStore builds it). SQLite's `lower()` folds ASCII only, which is what Swift's `lowercased()` does to
///    the generated benchmark data.
///
/// Strings without escapes are bound straight from the file buffer; strings with escapes are decoded in place in it.
///
/// - Parameters:
///   - json_path: The posts file.
///   - db_path: The SQLite database; created if missing.
///   - schema_sql: SQL that creates the `posts` table (for example the text of `Migrations/SQLite/0001_create_posts.sql`). It
///     is executed only when the database has no `posts` table, so the migration text, which has no
///     `IF NOT EXISTS`, can be passed on every call. May be NULL when the table exists.
///   - search_index_sql: NULL for no search index, else the `CREATE VIRTUAL TABLE posts_search …` statement (for
///     example the text of `Migrations/0002_create_search_index.sql`); executed only when the database has no
///     `posts_search` table, and the index is rebuilt after the upserts either way.
///   - prune: Nonzero to delete the rows whose id is not in the file.
///   - out: Receives the counts, the time and, on failure, the message. Must not be NULL.
/// - Returns: 0 on success; nonzero when the file cannot be read or parsed or SQLite fails, in which case the
///   transaction is rolled back, `out->error` says why and the counts tell how far the call got before it stopped.
///
/// For example:
/// ```c
/// climit_result result;
/// if (climit_sync("posts.json", "posts.sqlite", schema, NULL, 1, &result) != 0) {
///     fprintf(stderr, "%s\n", result.error);
/// }
/// ```
int climit_sync(const char *json_path, const char *db_path, const char *schema_sql, const char *search_index_sql,
                int prune, climit_result *out);

/// `climit_sync`, with a choice of how the search index is kept: with `index_row_by_row` nonzero (and
/// `search_index_sql` not NULL), each post is looked up and compared, and only a new or changed row is written,
/// with its old index entry deleted and its new one added (`lower()` in SQL); a pruned row's entry is deleted with
/// it. No rebuild follows. That is the cheapest way to keep the index of a store that already holds posts, and the
/// yardstick for a re-sync of the changed set into an indexed store. `rows_written` then counts rows written.
int climit_sync_indexing(const char *json_path, const char *db_path, const char *schema_sql,
                         const char *search_index_sql, int prune, int index_row_by_row, climit_result *out);

/// The version of the SQLite library both sides of the benchmark link, as `sqlite3_libversion()` says it.
const char *climit_sqlite_version(void);

#ifdef __cplusplus
}
#endif

#endif
