import { sqliteOpener, type SqliteDatabase } from '../../../../src/adapters/node/sqlite-driver.js';
import { HeldVocabulary } from '../../../../src/adapters/node/sqlite-index-vocabulary.js';
import { prng } from '../item-index-contract.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'é', 'ra', '_', '-', '7', 'ion', 'ß', 'x'];

function vocab(): SqliteDatabase {
  const db = sqliteOpener()(':memory:', 1000);
  db.exec('CREATE TABLE vocab(wid INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE)');
  return db;
}

function addWords(db: SqliteDatabase, random: () => number, count: number): void {
  const insert = db.prepare('INSERT OR IGNORE INTO vocab(word) VALUES (?)');
  for (let n = 0; n < count; n++) {
    let word = '';
    for (let k = 1 + Math.floor(random() * 4); k > 0; k--) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    insert.run(word);
  }
}

/** What SQL says: the plain path the held vocabulary replaces. */
const inSql = (db: SqliteDatabase, term: string) => db.prepare('SELECT wid, word FROM vocab WHERE instr(word, ?) > 0 ORDER BY wid').raw().all(term);

describe('HeldVocabulary', () => {
  it('finds the same words as a scan of vocab in SQL, as words are added between searches', () => {
    const random = prng(3);
    const db = vocab();
    const held = new HeldVocabulary((sql) => db.prepare(sql));
    const terms = ['ka', 'lo', 'a', 'ion', 'é', '_', '-7', 'kaka', 'ßx', 'zz', 'r'];
    for (let round = 0; round < 6; round++) {
      addWords(db, random, 400);
      for (const term of terms) expect(held.containing(term)).toEqual(inSql(db, term));
    }
    expect((db.prepare('SELECT count(*) FROM vocab').pluck().get() as number)).toBeGreaterThan(1000);
  });

  it('reads the vocabulary again after clear(), and leaves terms with a line feed to SQL', () => {
    const db = vocab();
    const held = new HeldVocabulary((sql) => db.prepare(sql));
    addWords(db, prng(5), 200);
    const before = held.containing('ka');
    held.clear();
    expect(held.containing('ka')).toEqual(before);
    expect(held.containing('ka\nlo')).toBeUndefined();
    expect(held.containing('')).toBeUndefined();
  });

  it('holds nothing past its size and answers undefined (SQL decides) from then on', () => {
    const db = vocab();
    const held = new HeldVocabulary((sql) => db.prepare(sql), 50);
    db.prepare('INSERT INTO vocab(word) VALUES (?)').run('kalo');
    expect(held.containing('ka')).toEqual([[1, 'kalo']]);
    for (let n = 0; n < 20; n++) db.prepare('INSERT INTO vocab(word) VALUES (?)').run(`kaword${n}`);
    expect(held.containing('ka')).toBeUndefined();
    expect(held.containing('lo')).toBeUndefined();
  });
});
