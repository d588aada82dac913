/**
 * The schema of the SQLite index (docs/TRACKER.md "The derived index"). Bump
 * {@link SQLITE_INDEX_SCHEMA} whenever a table, column or the meaning of a value changes: a
 * database of another version is emptied and rebuilt from the item files.
 */
export const SQLITE_INDEX_SCHEMA = 11;

/**
 * `files` holds every recorded item file (an indexed item or an unreadable file, `problem` set;
 * files_problem lists those, which every list, next and search names, without a pass over all files),
 * `items` the indexed fields (kept narrow, so scans of 100k rows stay in few pages) with two
 * readiness flags kept up to date by every applied change: `blocked` (a blocker is missing or
 * not in a terminal status) and `busy` (a child is not in a terminal status). items_next covers
 * what next counts, items_queue orders the unblocked open items as next picks them, so next
 * reads the few rows it returns instead of classifying every open item. `texts` the
 * lowercased body and comments (with `words`, the JSON list of the item's [word id, title, body,
 * comments counts], what its next change compares with), `tags` and `links` (kind 0: blocker,
 * 1: related) the list fields as rows so filters use indexes. Search and list's text filter read
 * `vocab` (every word of the texts, numbered; a word's id never changes while the file lives),
 * `word_columns` (per word its postings, [item rowid, counts per field], as one stored column:
 * sqlite-index-column-codec.ts) and `word_changes` (the postings changed since the word's column
 * was last written: the counts now, all 0 for a posting gone), so a write touches a row per
 * changed word instead of rewriting the word's column, and the column is written again once its
 * changes grow (sqlite-index-search.ts).
 */
export const SQLITE_INDEX_DDL = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
  id TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, ino INTEGER NOT NULL, ctime REAL NOT NULL,
  hash INTEGER NOT NULL, racy INTEGER NOT NULL, problem TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS files_racy ON files(racy) WHERE racy = 1;
CREATE INDEX IF NOT EXISTS files_problem ON files(id) WHERE problem IS NOT NULL;
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
CREATE INDEX IF NOT EXISTS items_claims ON items(claim_expires, status, assignee, claim_holder, blocked, busy, type, priority, created, id) WHERE claim_holder IS NOT NULL;
CREATE TABLE IF NOT EXISTS tags(rid INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY(rid, tag)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_tag ON tags(tag, rid);
CREATE TABLE IF NOT EXISTS links(rid INTEGER NOT NULL, kind INTEGER NOT NULL, target TEXT NOT NULL, PRIMARY KEY(rid, kind, target)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_target ON links(target, kind, rid);
CREATE TABLE IF NOT EXISTS vocab(wid INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS word_columns(wid INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS word_changes(
  wid INTEGER NOT NULL, rid INTEGER NOT NULL, t INTEGER NOT NULL, b INTEGER NOT NULL, c INTEGER NOT NULL, PRIMARY KEY(wid, rid)
) WITHOUT ROWID;
`;

/**
 * The kept counts of the SQLite index (docs/TRACKER.md "The derived index"): how many items
 * there are per combination of the low-cardinality fields list and next filter on (status,
 * type, assignee, and next's blocked and busy marks), and per tag and combination. SQLite
 * triggers keep them in the same transaction as every write to `items` and `tags` (each applied
 * change, the marks' refresh and the first build's copy), so no writer can forget them. A
 * total of such a filter is a sum over a few rows instead of a pass over every matching item.
 * `assignee` is generated from the key (`assigned`, `who`): a key column cannot be NULL, and
 * the filter SQL of `items` then applies to these tables as it is.
 */
export const SQLITE_INDEX_COUNTS_DDL = `
CREATE TABLE IF NOT EXISTS item_counts(
  status TEXT NOT NULL, type TEXT NOT NULL, assigned INTEGER NOT NULL, who TEXT NOT NULL, blocked INTEGER NOT NULL, busy INTEGER NOT NULL, n INTEGER NOT NULL,
  assignee TEXT GENERATED ALWAYS AS (CASE WHEN assigned = 1 THEN who END) VIRTUAL,
  PRIMARY KEY(status, type, assigned, who, blocked, busy)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tag_counts(
  tag TEXT NOT NULL, status TEXT NOT NULL, type TEXT NOT NULL, assigned INTEGER NOT NULL, who TEXT NOT NULL, n INTEGER NOT NULL,
  assignee TEXT GENERATED ALWAYS AS (CASE WHEN assigned = 1 THEN who END) VIRTUAL,
  PRIMARY KEY(tag, status, type, assigned, who)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS items_counted AFTER INSERT ON items BEGIN
  INSERT INTO item_counts(status, type, assigned, who, blocked, busy, n) VALUES (new.status, new.type, new.assignee IS NOT NULL, coalesce(new.assignee, ''), new.blocked, new.busy, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS items_uncounted AFTER DELETE ON items BEGIN
  UPDATE item_counts SET n = n - 1 WHERE status = old.status AND type = old.type AND assigned = (old.assignee IS NOT NULL) AND who = coalesce(old.assignee, '') AND blocked = old.blocked AND busy = old.busy;
END;
CREATE TRIGGER IF NOT EXISTS items_recounted AFTER UPDATE OF status, type, assignee, blocked, busy ON items
  WHEN old.status IS NOT new.status OR old.type IS NOT new.type OR old.assignee IS NOT new.assignee OR old.blocked IS NOT new.blocked OR old.busy IS NOT new.busy
BEGIN
  UPDATE item_counts SET n = n - 1 WHERE status = old.status AND type = old.type AND assigned = (old.assignee IS NOT NULL) AND who = coalesce(old.assignee, '') AND blocked = old.blocked AND busy = old.busy;
  INSERT INTO item_counts(status, type, assigned, who, blocked, busy, n) VALUES (new.status, new.type, new.assignee IS NOT NULL, coalesce(new.assignee, ''), new.blocked, new.busy, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
  UPDATE tag_counts SET n = n - 1 WHERE tag IN (SELECT tag FROM tags WHERE rid = old.rid) AND status = old.status AND type = old.type AND assigned = (old.assignee IS NOT NULL) AND who = coalesce(old.assignee, '')
    AND (old.status IS NOT new.status OR old.type IS NOT new.type OR old.assignee IS NOT new.assignee);
  INSERT INTO tag_counts(tag, status, type, assigned, who, n) SELECT tag, new.status, new.type, new.assignee IS NOT NULL, coalesce(new.assignee, ''), 1 FROM tags
    WHERE rid = new.rid AND (old.status IS NOT new.status OR old.type IS NOT new.type OR old.assignee IS NOT new.assignee)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS tags_counted AFTER INSERT ON tags BEGIN
  INSERT INTO tag_counts(tag, status, type, assigned, who, n) SELECT new.tag, status, type, assignee IS NOT NULL, coalesce(assignee, ''), 1 FROM items WHERE rid = new.rid
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS tags_uncounted AFTER DELETE ON tags BEGIN
  UPDATE tag_counts SET n = n - 1 WHERE (tag, status, type, assigned, who) IN (SELECT old.tag, status, type, assignee IS NOT NULL, coalesce(assignee, '') FROM items WHERE rid = old.rid);
END;
`;

/** The count tables, emptied with the others when the index is reset or built anew (their triggers go with `items` and `tags`). */
export const SQLITE_INDEX_COUNT_TABLES = ['item_counts', 'tag_counts'] as const;

/** Every table of the schema, dropped when a database of another version is reset. */
export const SQLITE_INDEX_TABLES = ['meta', 'files', 'items', 'texts', 'tags', 'links', 'fts', 'vocab', 'postings', 'word_columns', 'word_changes', 'comment_lines', 'comment_fts', ...SQLITE_INDEX_COUNT_TABLES] as const;
