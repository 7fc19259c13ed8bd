#include "climit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// MARK: - Errors and time

// Keeps the first message: later failures (a ROLLBACK after a parse error, say) are consequences, not causes.
static void set_error(climit_result *out, const char *format, ...) {
    if (out->error[0] != '\0') return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(out->error, sizeof out->error, format, arguments);
    va_end(arguments);
}

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

// MARK: - Reading the file

// The whole file in one buffer: the parser decodes strings in place in it and SQLite binds them from it.
static char *read_file(const char *path, size_t *length, climit_result *out) {
    int descriptor = open(path, O_RDONLY);
    if (descriptor < 0) {
        set_error(out, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        set_error(out, "cannot stat %s: %s", path, strerror(errno));
        close(descriptor);
        return NULL;
    }
    size_t size = (size_t)status.st_size;
    char *buffer = malloc(size + 1);
    if (buffer == NULL) {
        set_error(out, "cannot allocate %zu bytes for %s", size + 1, path);
        close(descriptor);
        return NULL;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t count = read(descriptor, buffer + done, size - done);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            set_error(out, "cannot read %s: %s", path, count < 0 ? strerror(errno) : "file shrank while reading");
            free(buffer);
            close(descriptor);
            return NULL;
        }
        done += (size_t)count;
    }
    close(descriptor);
    buffer[size] = '\0';  // Not relied on (every read is bounded by the end pointer); it only helps a debugger.
    *length = size;
    return buffer;
}

// MARK: - Parsing

// A cursor over the file buffer. Decoding a string in place only ever shrinks it, so the decoded bytes never
// overwrite bytes still to be read, and every string already handed to SQLite stays intact.
typedef struct {
    char *position;
    char *start;
    char *end;
    climit_result *out;
} parser;

// A string in the file buffer, decoded; not NUL-terminated.
typedef struct {
    const char *bytes;
    size_t length;
} text;

typedef struct {
    long long id;
    long long user_id;
    text title;
    text body;
} post;

static int fail(parser *p, const char *what) {
    set_error(p->out, "malformed JSON at byte %lld: %s", (long long)(p->position - p->start), what);
    return -1;
}

static void skip_whitespace(parser *p) {
    while (p->position < p->end) {
        char c = *p->position;
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
        p->position++;
    }
}

// Skips whitespace, then consumes `expected` or fails.
static int expect(parser *p, char expected, const char *what) {
    skip_whitespace(p);
    if (p->position >= p->end || *p->position != expected) return fail(p, what);
    p->position++;
    return 0;
}

// Four hex digits at `s` (the caller checked they are in bounds); -1 if one is not a hex digit.
static long hex4(const char *s) {
    long value = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int digit;
        if (c >= '0' && c <= '9') digit = c - '0';
        else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
        else return -1;
        value = value * 16 + digit;
    }
    return value;
}

static char *put_utf8(char *w, unsigned long scalar) {
    if (scalar < 0x80) {
        *w++ = (char)scalar;
    } else if (scalar < 0x800) {
        *w++ = (char)(0xC0 | (scalar >> 6));
        *w++ = (char)(0x80 | (scalar & 0x3F));
    } else if (scalar < 0x10000) {
        *w++ = (char)(0xE0 | (scalar >> 12));
        *w++ = (char)(0x80 | ((scalar >> 6) & 0x3F));
        *w++ = (char)(0x80 | (scalar & 0x3F));
    } else {
        *w++ = (char)(0xF0 | (scalar >> 18));
        *w++ = (char)(0x80 | ((scalar >> 12) & 0x3F));
        *w++ = (char)(0x80 | ((scalar >> 6) & 0x3F));
        *w++ = (char)(0x80 | (scalar & 0x3F));
    }
    return w;
}

// Decodes the escape at `r` (a backslash before the closing quote) to `*w`; returns the byte after it, NULL if invalid.
// A \uXXXX escape takes 6 bytes and yields at most 3, a surrogate pair takes 12 and yields 4: the output never
// overtakes the input.
static char *decode_escape(parser *p, char *r, char **w) {
    switch (r[1]) {
    case '"': *(*w)++ = '"'; return r + 2;
    case '\\': *(*w)++ = '\\'; return r + 2;
    case '/': *(*w)++ = '/'; return r + 2;
    case 'b': *(*w)++ = '\b'; return r + 2;
    case 'f': *(*w)++ = '\f'; return r + 2;
    case 'n': *(*w)++ = '\n'; return r + 2;
    case 'r': *(*w)++ = '\r'; return r + 2;
    case 't': *(*w)++ = '\t'; return r + 2;
    case 'u': break;
    default: p->position = r; fail(p, "invalid escape"); return NULL;
    }
    long unit = p->end - r >= 6 ? hex4(r + 2) : -1;
    if (unit < 0) {
        p->position = r;
        fail(p, "invalid \\u escape");
        return NULL;
    }
    r += 6;
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
        p->position = r - 6;
        fail(p, "unpaired low surrogate");
        return NULL;
    }
    if (unit >= 0xD800 && unit <= 0xDBFF) {
        long low = (p->end - r >= 6 && r[0] == '\\' && r[1] == 'u') ? hex4(r + 2) : -1;
        if (low < 0xDC00 || low > 0xDFFF) {
            p->position = r - 6;
            fail(p, "unpaired high surrogate");
            return NULL;
        }
        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
        r += 6;
    }
    *w = put_utf8(*w, (unsigned long)unit);
    return r;
}

// Parses the string whose opening quote is at the cursor and leaves the cursor after its closing quote. A string
// without escapes is returned where it lies (no copy); one with escapes is decoded in place. memchr finds the quote
// and the backslashes, so the common case scans at memchr's speed.
static int parse_string(parser *p, text *result) {
    char *r = p->position + 1;
    char *quote = memchr(r, '"', (size_t)(p->end - r));
    if (quote == NULL) return fail(p, "unterminated string");
    char *backslash = memchr(r, '\\', (size_t)(quote - r));
    if (backslash == NULL) {
        result->bytes = r;
        result->length = (size_t)(quote - r);
        p->position = quote + 1;
        return 0;
    }
    char *begin = r;
    char *w = backslash;
    r = backslash;
    for (;;) {
        r = decode_escape(p, r, &w);
        if (r == NULL) return -1;
        if (r > quote) {  // The quote found was an escaped one (\"): find the next.
            quote = memchr(r, '"', (size_t)(p->end - r));
            if (quote == NULL) return fail(p, "unterminated string");
        }
        backslash = memchr(r, '\\', (size_t)(quote - r));
        char *run_end = backslash != NULL ? backslash : quote;
        memmove(w, r, (size_t)(run_end - r));
        w += run_end - r;
        r = run_end;
        if (backslash == NULL) break;
    }
    result->bytes = begin;
    result->length = (size_t)(w - begin);
    p->position = quote + 1;
    return 0;
}

// Skips a string without decoding it: the closing quote is the first one preceded by an even run of backslashes.
static int skip_string(parser *p) {
    char *r = p->position + 1;
    for (;;) {
        char *quote = memchr(r, '"', (size_t)(p->end - r));
        if (quote == NULL) return fail(p, "unterminated string");
        char *b = quote;
        while (b > r && b[-1] == '\\') b--;
        if (((quote - b) & 1) == 0) {
            p->position = quote + 1;
            return 0;
        }
        r = quote + 1;
    }
}

// Skips any value (the value of a key we do not read). Brackets are counted, not matched: a baseline need not
// validate, only stay in bounds.
static int skip_value(parser *p) {
    skip_whitespace(p);
    if (p->position >= p->end) return fail(p, "expected a value");
    char c = *p->position;
    if (c == '"') return skip_string(p);
    if (c == '{' || c == '[') {
        long depth = 0;
        while (p->position < p->end) {
            c = *p->position;
            if (c == '"') {
                if (skip_string(p) != 0) return -1;
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    p->position++;
                    return 0;
                }
            }
            p->position++;
        }
        return fail(p, "unterminated object or array");
    }
    // A number, true, false or null: a run of the characters those are spelled with.
    char *s = p->position;
    while (s < p->end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || *s == '-' || *s == '+' ||
                          *s == '.' || *s == 'E')) {
        s++;
    }
    if (s == p->position) return fail(p, "expected a value");
    p->position = s;
    return 0;
}

static int parse_integer(parser *p, long long *value) {
    skip_whitespace(p);
    char *s = p->position;
    int negative = s < p->end && *s == '-';
    if (negative) s++;
    unsigned long long magnitude = 0;
    int digits = 0;
    while (s < p->end && *s >= '0' && *s <= '9') {
        if (++digits > 18) return fail(p, "integer too large");
        magnitude = magnitude * 10 + (unsigned long long)(*s - '0');
        s++;
    }
    if (digits == 0 || (s < p->end && (*s == '.' || *s == 'e' || *s == 'E'))) return fail(p, "expected an integer");
    *value = negative ? -(long long)magnitude : (long long)magnitude;
    p->position = s;
    return 0;
}

static int parse_string_value(parser *p, text *result) {
    skip_whitespace(p);
    if (p->position >= p->end || *p->position != '"') return fail(p, "expected a string");
    return parse_string(p, result);
}

static int key_is(const text *key, const char *name, size_t length) {
    return key->length == length && memcmp(key->bytes, name, length) == 0;
}

// Parses the object whose '{' is at the cursor. Keys may come in any order; unknown keys are skipped.
static int parse_post(parser *p, post *result) {
    enum { has_id = 1, has_user_id = 2, has_title = 4, has_body = 8, has_all = 15 };
    int seen = 0;
    char *object_start = p->position;
    p->position++;
    skip_whitespace(p);
    if (p->position < p->end && *p->position == '}') {
        p->position++;
    } else {
        for (;;) {
            skip_whitespace(p);
            if (p->position >= p->end || *p->position != '"') return fail(p, "expected a key");
            text key;
            if (parse_string(p, &key) != 0) return -1;
            if (expect(p, ':', "expected ':'") != 0) return -1;
            int status;
            if (key_is(&key, "id", 2)) {
                status = parse_integer(p, &result->id);
                seen |= has_id;
            } else if (key_is(&key, "userId", 6)) {
                status = parse_integer(p, &result->user_id);
                seen |= has_user_id;
            } else if (key_is(&key, "title", 5)) {
                status = parse_string_value(p, &result->title);
                seen |= has_title;
            } else if (key_is(&key, "body", 4)) {
                status = parse_string_value(p, &result->body);
                seen |= has_body;
            } else {
                status = skip_value(p);
            }
            if (status != 0) return -1;
            skip_whitespace(p);
            if (p->position < p->end && *p->position == ',') {
                p->position++;
                continue;
            }
            if (p->position < p->end && *p->position == '}') {
                p->position++;
                break;
            }
            return fail(p, "expected ',' or '}'");
        }
    }
    if (seen != has_all) {
        p->position = object_start;
        return fail(p, "a post lacks one of userId, id, title, body");
    }
    if (result->title.length > INT_MAX || result->body.length > INT_MAX) {
        p->position = object_start;
        return fail(p, "a string is longer than SQLite binds");
    }
    return 0;
}

// MARK: - SQLite

static int sqlite_failed(sqlite3 *db, climit_result *out, const char *what) {
    set_error(out, "sqlite: %s: %s", what, db != NULL ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

static int exec(sqlite3 *db, const char *sql, climit_result *out, const char *what) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) == SQLITE_OK) return 0;
    set_error(out, "sqlite: %s: %s", what, message != NULL ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return -1;
}

// 1 if the table exists, 0 if not, -1 on error.
static int table_exists(sqlite3 *db, const char *name, climit_result *out) {
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", -1, &statement,
                           NULL) != SQLITE_OK) {
        return sqlite_failed(db, out, "looking up a table");
    }
    sqlite3_bind_text(statement, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (step != SQLITE_ROW && step != SQLITE_DONE) return sqlite_failed(db, out, "looking up a table");
    return step == SQLITE_ROW;
}

static int compare_ids(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int contains(const long long *sorted, size_t count, long long id) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (sorted[middle] < id) low = middle + 1;
        else high = middle;
    }
    return low < count && sorted[low] == id;
}

// A growable array of ids.
typedef struct {
    long long *items;
    size_t count;
    size_t capacity;
} id_list;

static int append_id(id_list *list, long long id, climit_result *out) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity < 1024 ? 1024 : list->capacity * 2;
        long long *items = realloc(list->items, capacity * sizeof *items);
        if (items == NULL) {
            set_error(out, "cannot allocate %zu ids", capacity);
            return -1;
        }
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = id;
    return 0;
}

// MARK: - Keeping the search index row by row

// The statements of a re-sync that keeps the search index in step with each row it really changes: look the row up,
// compare it, and only for a new or changed row write it and its index entry (the old entry deleted first; a
// contentless index needs the very text it was given). Lowercasing is SQLite's `lower()`, as in the bulk rebuild.
typedef struct {
    sqlite3_stmt *select;
    sqlite3_stmt *insert;
    sqlite3_stmt *update;
    sqlite3_stmt *remove;
    sqlite3_stmt *index_insert;
    sqlite3_stmt *index_delete;
} row_writer;

static int prepare_row_writer(sqlite3 *db, row_writer *w, climit_result *out) {
    const char *sql[] = {
        "SELECT user_id, title, body FROM posts WHERE id = ?1",
        "INSERT INTO posts (id, user_id, title, body) VALUES (?1, ?2, ?3, ?4)",
        "UPDATE posts SET user_id = ?2, title = ?3, body = ?4 WHERE id = ?1",
        "DELETE FROM posts WHERE id = ?1",
        "INSERT INTO posts_search (rowid, title, body) VALUES (?1, lower(?2), lower(?3))",
        "INSERT INTO posts_search (posts_search, rowid, title, body) VALUES ('delete', ?1, lower(?2), lower(?3))",
    };
    sqlite3_stmt **targets[] = {&w->select, &w->insert, &w->update, &w->remove, &w->index_insert, &w->index_delete};
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        if (sqlite3_prepare_v2(db, sql[i], -1, targets[i], NULL) != SQLITE_OK) {
            return sqlite_failed(db, out, "preparing the row-by-row statements");
        }
    }
    return 0;
}

static void finalize_row_writer(row_writer *w) {
    sqlite3_finalize(w->select);
    sqlite3_finalize(w->insert);
    sqlite3_finalize(w->update);
    sqlite3_finalize(w->remove);
    sqlite3_finalize(w->index_insert);
    sqlite3_finalize(w->index_delete);
}

static int run(sqlite3 *db, sqlite3_stmt *statement, climit_result *out, const char *what) {
    int step = sqlite3_step(statement);
    sqlite3_reset(statement);
    return step == SQLITE_DONE ? 0 : sqlite_failed(db, out, what);
}

static int column_equals(sqlite3_stmt *statement, int column, const text *value) {
    const void *stored = sqlite3_column_text(statement, column);
    size_t length = (size_t)sqlite3_column_bytes(statement, column);
    return length == value->length && (length == 0 || memcmp(stored, value->bytes, length) == 0);
}

// Deletes the index entry of the row `w->select` stands on (the stored post with this id).
static int delete_index_entry(sqlite3 *db, row_writer *w, long long id, climit_result *out) {
    sqlite3_bind_int64(w->index_delete, 1, id);
    sqlite3_bind_text(w->index_delete, 2, (const char *)sqlite3_column_text(w->select, 1),
                      sqlite3_column_bytes(w->select, 1), SQLITE_TRANSIENT);
    sqlite3_bind_text(w->index_delete, 3, (const char *)sqlite3_column_text(w->select, 2),
                      sqlite3_column_bytes(w->select, 2), SQLITE_TRANSIENT);
    return run(db, w->index_delete, out, "deleting an index entry");
}

// Writes one post and its index entry unless the stored row equals it; counts it in rows_written when written.
static int write_row(sqlite3 *db, row_writer *w, const post *row, climit_result *out) {
    sqlite3_bind_int64(w->select, 1, row->id);
    int step = sqlite3_step(w->select);
    if (step != SQLITE_ROW && step != SQLITE_DONE) return sqlite_failed(db, out, "looking a post up");
    int exists = step == SQLITE_ROW;
    int equal = exists && sqlite3_column_int64(w->select, 0) == row->user_id &&
                column_equals(w->select, 1, &row->title) && column_equals(w->select, 2, &row->body);
    if (equal) {
        sqlite3_reset(w->select);
        return 0;
    }
    if (exists) {
        // The old text, bound from the lookup's row (SQLITE_TRANSIENT: the row goes with the reset).
        if (delete_index_entry(db, w, row->id, out) != 0) return -1;
    }
    sqlite3_reset(w->select);
    sqlite3_stmt *write = exists ? w->update : w->insert;
    sqlite3_bind_int64(write, 1, row->id);
    sqlite3_bind_int64(write, 2, row->user_id);
    sqlite3_bind_text(write, 3, row->title.bytes, (int)row->title.length, SQLITE_STATIC);
    sqlite3_bind_text(write, 4, row->body.bytes, (int)row->body.length, SQLITE_STATIC);
    if (run(db, write, out, "writing a post") != 0) return -1;
    sqlite3_bind_int64(w->index_insert, 1, row->id);
    sqlite3_bind_text(w->index_insert, 2, row->title.bytes, (int)row->title.length, SQLITE_STATIC);
    sqlite3_bind_text(w->index_insert, 3, row->body.bytes, (int)row->body.length, SQLITE_STATIC);
    if (run(db, w->index_insert, out, "adding an index entry") != 0) return -1;
    out->rows_written++;
    return 0;
}

static const char upsert_sql[] =
    "INSERT INTO posts (id, user_id, title, body) VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, title = excluded.title, body = excluded.body "
    "WHERE posts.user_id IS NOT excluded.user_id OR posts.title IS NOT excluded.title "
    "OR posts.body IS NOT excluded.body";

// Parses the array and upserts each post as soon as it is parsed, so no list of posts is ever built.
// With `rows`, each post goes through the row-by-row writer instead of the upsert.
static int upsert_all(sqlite3 *db, parser *p, id_list *ids, int keep_ids, row_writer *rows, climit_result *out) {
    sqlite3_stmt *upsert = NULL;
    if (sqlite3_prepare_v2(db, upsert_sql, -1, &upsert, NULL) != SQLITE_OK) {
        return sqlite_failed(db, out, "preparing the upsert");
    }
    int status = -1;
    if (expect(p, '[', "expected '[' (the file must be a JSON array of posts)") != 0) goto done;
    skip_whitespace(p);
    if (p->position < p->end && *p->position == ']') {
        p->position++;
    } else {
        for (;;) {
            skip_whitespace(p);
            if (p->position >= p->end || *p->position != '{') {
                fail(p, "expected '{'");
                goto done;
            }
            post row;
            if (parse_post(p, &row) != 0) goto done;
            out->posts_read++;
            if (keep_ids && append_id(ids, row.id, out) != 0) goto done;
            if (rows != NULL) {
                if (write_row(db, rows, &row, out) != 0) goto done;
                goto next;
            }
            sqlite3_bind_int64(upsert, 1, row.id);
            sqlite3_bind_int64(upsert, 2, row.user_id);
            // SQLITE_STATIC: the bytes live in the file buffer, which outlives the statement.
            sqlite3_bind_text(upsert, 3, row.title.bytes, (int)row.title.length, SQLITE_STATIC);
            sqlite3_bind_text(upsert, 4, row.body.bytes, (int)row.body.length, SQLITE_STATIC);
            if (sqlite3_step(upsert) != SQLITE_DONE) {
                sqlite_failed(db, out, "upserting a post");
                goto done;
            }
            out->rows_written += sqlite3_changes(db);
            sqlite3_reset(upsert);
        next:
            skip_whitespace(p);
            if (p->position < p->end && *p->position == ',') {
                p->position++;
                continue;
            }
            if (p->position < p->end && *p->position == ']') {
                p->position++;
                break;
            }
            fail(p, "expected ',' or ']'");
            goto done;
        }
    }
    skip_whitespace(p);
    if (p->position != p->end) {
        fail(p, "unexpected characters after the array");
        goto done;
    }
    status = 0;
done:
    sqlite3_finalize(upsert);
    return status;
}

// Deletes the rows whose id is not among `ids` (sorted here). The stale ids are collected first and deleted after
// the scan, so the table is never changed under a running SELECT.
// With `rows`, each stale row's index entry is deleted first.
static int prune_stale(sqlite3 *db, id_list *ids, row_writer *rows, climit_result *out) {
    if (ids->count > 0) qsort(ids->items, ids->count, sizeof *ids->items, compare_ids);
    id_list stale = {0};
    sqlite3_stmt *select = NULL;
    sqlite3_stmt *remove_row = NULL;
    int status = -1;
    if (sqlite3_prepare_v2(db, "SELECT id FROM posts", -1, &select, NULL) != SQLITE_OK) {
        sqlite_failed(db, out, "preparing the prune scan");
        goto done;
    }
    int step;
    while ((step = sqlite3_step(select)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(select, 0);
        if (!contains(ids->items, ids->count, id) && append_id(&stale, id, out) != 0) goto done;
    }
    if (step != SQLITE_DONE) {
        sqlite_failed(db, out, "scanning ids to prune");
        goto done;
    }
    if (sqlite3_prepare_v2(db, "DELETE FROM posts WHERE id = ?1", -1, &remove_row, NULL) != SQLITE_OK) {
        sqlite_failed(db, out, "preparing the prune");
        goto done;
    }
    for (size_t i = 0; i < stale.count; i++) {
        if (rows != NULL) {
            sqlite3_bind_int64(rows->select, 1, stale.items[i]);
            int found = sqlite3_step(rows->select) == SQLITE_ROW;
            int deleted = found ? delete_index_entry(db, rows, stale.items[i], out) : 0;
            sqlite3_reset(rows->select);
            if (deleted != 0) goto done;
        }
        sqlite3_bind_int64(remove_row, 1, stale.items[i]);
        if (sqlite3_step(remove_row) != SQLITE_DONE) {
            sqlite_failed(db, out, "pruning a post");
            goto done;
        }
        out->rows_deleted += sqlite3_changes(db);
        sqlite3_reset(remove_row);
    }
    status = 0;
done:
    sqlite3_finalize(select);
    sqlite3_finalize(remove_row);
    free(stale.items);
    return status;
}

// MARK: - The sync

int climit_sync(const char *json_path, const char *db_path, const char *schema_sql, const char *search_index_sql,
                int prune, climit_result *out) {
    return climit_sync_indexing(json_path, db_path, schema_sql, search_index_sql, prune, 0, out);
}

int climit_sync_indexing(const char *json_path, const char *db_path, const char *schema_sql,
                         const char *search_index_sql, int prune, int index_row_by_row, climit_result *out) {
    double start = now_seconds();
    memset(out, 0, sizeof *out);
    sqlite3 *db = NULL;
    id_list ids = {0};
    row_writer rows = {0};
    int in_transaction = 0;
    int status = -1;

    size_t length = 0;
    char *buffer = read_file(json_path, &length, out);
    if (buffer == NULL) goto done;
    parser p = {.position = buffer, .start = buffer, .end = buffer + length, .out = out};

    // NOMUTEX: this connection is used by this call's thread only, so SQLite's per-call locking buys nothing.
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        sqlite_failed(db, out, "opening the database");
        goto done;
    }
    if (exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;", out, "setting the journal mode") != 0) {
        goto done;
    }
    if (exec(db, "BEGIN IMMEDIATE", out, "beginning the transaction") != 0) goto done;
    in_transaction = 1;

    // The migrations have no IF NOT EXISTS: run them only on a database that lacks their table.
    if (schema_sql != NULL) {
        int exists = table_exists(db, "posts", out);
        if (exists < 0 || (!exists && exec(db, schema_sql, out, "creating the posts table") != 0)) goto done;
    }
    if (search_index_sql != NULL) {
        int exists = table_exists(db, "posts_search", out);
        if (exists < 0 || (!exists && exec(db, search_index_sql, out, "creating the search index") != 0)) goto done;
    }

    int row_by_row = search_index_sql != NULL && index_row_by_row;
    if (row_by_row && prepare_row_writer(db, &rows, out) != 0) goto done;
    if (upsert_all(db, &p, &ids, prune, row_by_row ? &rows : NULL, out) != 0) goto done;
    if (prune && prune_stale(db, &ids, row_by_row ? &rows : NULL, out) != 0) goto done;
    if (search_index_sql != NULL && !row_by_row) {
        // A contentless FTS5 table cannot 'rebuild' (it has no content to read back); 'delete-all' empties it.
        // Merging once at the end, as PostStore does (see its SQLiteSearchIndex.rebuild), is the cheaper build.
        if (exec(db,
                 "INSERT INTO posts_search (posts_search) VALUES ('delete-all');"
                 "INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 0);"
                 "INSERT INTO posts_search (rowid, title, body) SELECT id, lower(title), lower(body) FROM posts;"
                 "INSERT INTO posts_search (posts_search) VALUES ('optimize');"
                 "INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 4);",
                 out, "rebuilding the search index") != 0) {
            goto done;
        }
    }

    if (exec(db, "COMMIT", out, "committing") != 0) goto done;
    in_transaction = 0;
    status = 0;
done:
    finalize_row_writer(&rows);
    if (in_transaction) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    if (db != NULL && sqlite3_close(db) != SQLITE_OK && status == 0) {
        status = sqlite_failed(db, out, "closing the database");
    }
    free(ids.items);
    free(buffer);
    out->seconds = now_seconds() - start;
    return status;
}

const char *climit_sqlite_version(void) { return sqlite3_libversion(); }
