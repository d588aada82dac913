/**
 * The schema of the SQLite index (docs/TRACKER.md "The derived index"). Bump
 * {@link SQLITE_INDEX_SCHEMA} whenever a table, column or the meaning of a value changes: a
 * database of another version is emptied and rebuilt from the item files.
 */
export const SQLITE_INDEX_SCHEMA = 6;

/**
 * `files` holds every recorded item file (an indexed item or an unreadable file, `problem` set),
 * `items` the indexed fields (kept narrow, so scans of 100k rows stay in few pages) with two
 * readiness flags kept up to date by every applied change: `blocked` (a blocker is missing or
 * not in a terminal status) and `busy` (a child is not in a terminal status). items_next covers
 * what next counts, items_queue orders the unblocked open items as next picks them, so next
 * reads the few rows it returns instead of classifying every open item. `texts` the
 * lowercased body and comments (with `words`, the JSON list of the item's [word id, score, title, body, comments counts]; rows written before the counts were recorded hold [word id, score], whose counts are written again on the item's next change), `tags` and
 * `links` (kind 0: blocker, 1: related) the list fields as rows so filters use indexes.
 * Search and list's text filter read `vocab` (every word of the texts, numbered) and `postings` (per word and item the
 * word's counts per field, keyed by word, the item's one-word score, priority and status, so a
 * word's postings are stored in the order a one-word search ranks): sqlite-index-search.ts.
 */
export const SQLITE_INDEX_DDL = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
  id TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, ino INTEGER NOT NULL,
  hash INTEGER NOT NULL, racy INTEGER NOT NULL, problem TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS files_racy ON files(racy) WHERE racy = 1;
CREATE TABLE IF NOT EXISTS items(
  rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, type TEXT NOT NULL,
  status TEXT NOT NULL, priority INTEGER NOT NULL, tags TEXT NOT NULL, parent TEXT, assignee TEXT,
  claim_holder TEXT, claim_expires TEXT, blocked_by TEXT NOT NULL, related TEXT NOT NULL,
  created TEXT NOT NULL, updated TEXT NOT NULL, revision INTEGER NOT NULL, comments INTEGER NOT NULL,
  title_lc TEXT NOT NULL, blocked INTEGER NOT NULL DEFAULT 0, busy INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS texts(rid INTEGER PRIMARY KEY, body_lc TEXT NOT NULL, comments_lc TEXT NOT NULL, words TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS items_next ON items(status, blocked, busy, claim_holder, claim_expires, assignee, type);
CREATE INDEX IF NOT EXISTS items_queue ON items(status, blocked, busy, priority, created, id);
CREATE INDEX IF NOT EXISTS items_priority ON items(priority, created, id);
CREATE INDEX IF NOT EXISTS items_created ON items(created, id);
CREATE INDEX IF NOT EXISTS items_updated ON items(updated, id);
CREATE INDEX IF NOT EXISTS items_title ON items(title_lc, id);
CREATE INDEX IF NOT EXISTS items_parent ON items(parent, status) WHERE parent IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_assignee ON items(assignee) WHERE assignee IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_claims ON items(claim_expires) WHERE claim_holder IS NOT NULL;
CREATE TABLE IF NOT EXISTS tags(rid INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY(rid, tag)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_tag ON tags(tag, rid);
CREATE TABLE IF NOT EXISTS links(rid INTEGER NOT NULL, kind INTEGER NOT NULL, target TEXT NOT NULL, PRIMARY KEY(rid, kind, target)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_target ON links(target, kind, rid);
CREATE TABLE IF NOT EXISTS vocab(wid INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS postings(
  wid INTEGER NOT NULL, score INTEGER NOT NULL, priority INTEGER NOT NULL, status TEXT NOT NULL, rid INTEGER NOT NULL,
  t INTEGER NOT NULL, b INTEGER NOT NULL, c INTEGER NOT NULL, PRIMARY KEY(wid, score DESC, priority, status, rid)
) WITHOUT ROWID;
`;

/** Every table of the schema, dropped when a database of another version is reset. */
export const SQLITE_INDEX_TABLES = ['meta', 'files', 'items', 'texts', 'tags', 'links', 'fts', 'vocab', 'postings', 'comment_lines', 'comment_fts'] as const;

/** The SQLite error codes that mean the file is not a usable database. */
export const CORRUPT_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CANTOPEN']);
