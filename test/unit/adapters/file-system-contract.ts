import { RefusedFileError } from '../../../src/domain/errors/index.js';
import { confinedFileSystem } from '../../../src/domain/tracker/confined-file-system.js';
import type { FileSystem } from '../../../src/ports/file-system.js';

/** What a FileSystem adapter's contract run needs: the adapter and ways to build a tree. */
export interface FileSystemContractSubject {
  readonly fs: FileSystem;
  /** An existing, empty directory. */
  readonly root: string;
  writeBytes(path: string, bytes: Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  /** A node that is neither file, directory nor link (a FIFO). */
  special(path: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** Replaces a file by a new node (temp file renamed over it, as editors and git do). */
  replaceFile(path: string, bytes: Uint8Array): Promise<void>;
}

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const BOM_CRLF = bytes(0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62);
const NOT_UTF8 = bytes(0xff, 0xfe, 0x00, 0xc3, 0x28);

/**
 * The shared contract of the FileSystem port's link-free reads, run against the node adapter
 * (real files in a temp dir) and the in-memory one, so the fakes the domain tests use behave
 * like the real thing.
 */
export function describeFileSystemContract(label: string, subject: () => Promise<FileSystemContractSubject>): void {
  describe(`${label}: FileSystem link-free reads (contract)`, () => {
    let s: FileSystemContractSubject;
    let root: string;
    beforeEach(async () => {
      s = await subject();
      root = s.root;
    });

    async function tree(): Promise<void> {
      await s.mkdir(`${root}/dir/sub`);
      await s.writeBytes(`${root}/dir/a.md`, text('hello'));
      await s.writeBytes(`${root}/dir/bom.md`, BOM_CRLF);
      await s.writeBytes(`${root}/dir/empty`, bytes());
      await s.writeBytes(`${root}/outside.txt`, text('secret!'));
      await s.symlink(`${root}/outside.txt`, `${root}/dir/link-to-file`);
      await s.symlink(`${root}/dir/sub`, `${root}/dir/link-to-dir`);
      await s.symlink(`${root}/nowhere`, `${root}/dir/dangling`);
      await s.special(`${root}/dir/fifo`);
    }

    it('inspects a node without following a final link', async () => {
      await tree();
      expect(await s.fs.inspect(`${root}/dir/a.md`)).toMatchObject({ kind: 'file', size: 5 });
      expect(await s.fs.inspect(`${root}/dir`)).toMatchObject({ kind: 'directory' });
      expect(await s.fs.inspect(`${root}/dir/link-to-file`)).toMatchObject({ kind: 'symlink' });
      expect(await s.fs.inspect(`${root}/dir/link-to-dir`)).toMatchObject({ kind: 'symlink' });
      expect(await s.fs.inspect(`${root}/dir/dangling`)).toMatchObject({ kind: 'symlink' });
      expect(await s.fs.inspect(`${root}/dir/fifo`)).toMatchObject({ kind: 'other' });
      expect(await s.fs.inspect(`${root}/missing`)).toBeUndefined();
      expect(await s.fs.inspect(`${root}/dir/a.md/below-a-file`)).toBeUndefined();
    });

    it('lists direct entries with kinds, byte sizes and node ids, links reported as links', async () => {
      await tree();
      const listing = await s.fs.listEntries(`${root}/dir`, { limit: 100 });
      if (listing.status !== 'listed') throw new Error(`refused: ${listing.reason}`);
      expect(listing.truncated).toBe(false);
      expect(listing.id).toBe((await s.fs.inspect(`${root}/dir`))!.id);
      const byName = Object.fromEntries(listing.entries.map((e) => [e.name, e]));
      expect(Object.keys(byName).sort()).toEqual(['a.md', 'bom.md', 'dangling', 'empty', 'fifo', 'link-to-dir', 'link-to-file', 'sub']);
      expect(byName['a.md']).toMatchObject({ kind: 'file', size: 5 });
      expect(byName['bom.md']).toMatchObject({ kind: 'file', size: BOM_CRLF.length });
      expect(byName['empty']).toMatchObject({ kind: 'file', size: 0 });
      expect(byName['sub']).toMatchObject({ kind: 'directory' });
      expect(byName['link-to-file']).toMatchObject({ kind: 'symlink' });
      expect(byName['link-to-dir']).toMatchObject({ kind: 'symlink' });
      expect(byName['dangling']).toMatchObject({ kind: 'symlink' });
      expect(byName['fifo']).toMatchObject({ kind: 'other' });
      for (const entry of listing.entries) expect(entry.id).toBe((await s.fs.inspect(`${root}/dir/${entry.name}`))!.id);
      expect(new Set(listing.entries.map((e) => e.id)).size).toBe(listing.entries.length);
    });

    it('refuses to list a missing path, a file, or a directory that is itself a link', async () => {
      await tree();
      expect(await s.fs.listEntries(`${root}/missing`, { limit: 10 })).toEqual({ status: 'refused', reason: 'missing' });
      expect(await s.fs.listEntries(`${root}/missing/deeper`, { limit: 10 })).toEqual({ status: 'refused', reason: 'missing' });
      expect(await s.fs.listEntries(`${root}/dir/a.md`, { limit: 10 })).toEqual({ status: 'refused', reason: 'not-a-directory' });
      expect(await s.fs.listEntries(`${root}/dir/link-to-dir`, { limit: 10 })).toEqual({ status: 'refused', reason: 'symlink' });
      expect(await s.fs.listEntries(`${root}/dir/dangling`, { limit: 10 })).toEqual({ status: 'refused', reason: 'symlink' });
    });

    it('stops a listing at its limit and says it was truncated', async () => {
      for (let i = 0; i < 5; i++) await s.writeBytes(`${root}/many/f${i}`, text(String(i)));
      const cut = await s.fs.listEntries(`${root}/many`, { limit: 3 });
      expect(cut).toMatchObject({ status: 'listed', truncated: true });
      expect(cut.status === 'listed' && cut.entries.length).toBe(3);
      const whole = await s.fs.listEntries(`${root}/many`, { limit: 5 });
      expect(whole).toMatchObject({ status: 'listed', truncated: false });
      expect(whole.status === 'listed' && whole.entries.length).toBe(5);
      expect(await s.fs.listEntries(`${root}/many`, { limit: 0 })).toMatchObject({ status: 'listed', truncated: true, entries: [] });
    });

    it('visits the files of a directory with the signatures scan lists, and nothing of a missing one', async () => {
      await s.mkdir(`${root}/many/sub`);
      for (const name of ['b.md', 'a.md', 'c.tmp-1']) await s.writeBytes(`${root}/many/${name}`, text(name));
      const visited: { name: string; signature: unknown }[] = [];
      await s.fs.visitFiles(`${root}/many`, (name, signature) => visited.push({ name, signature }));
      const byName = (x: { name: string }, y: { name: string }) => (x.name < y.name ? -1 : 1);
      expect(visited.sort(byName)).toEqual([...(await s.fs.scan(`${root}/many`))].sort(byName));
      expect(visited.map(({ name }) => name)).toEqual(['a.md', 'b.md', 'c.tmp-1', 'sub']);
      const none: string[] = [];
      await s.fs.visitFiles(`${root}/missing`, (name) => none.push(name));
      expect(none).toEqual([]);
    });

    it('lists an empty directory as empty', async () => {
      await s.mkdir(`${root}/void`);
      expect(await s.fs.listEntries(`${root}/void`, { limit: 10 })).toMatchObject({ status: 'listed', entries: [], truncated: false });
    });

    it('reads raw bytes exactly: BOM, CRLF, invalid UTF-8 and empty files', async () => {
      await tree();
      await s.writeBytes(`${root}/dir/binary`, NOT_UTF8);
      expect(await s.fs.readBytes(`${root}/dir/bom.md`, { maxBytes: 100 })).toEqual({ status: 'read', bytes: BOM_CRLF });
      expect(await s.fs.readBytes(`${root}/dir/binary`, { maxBytes: 100 })).toEqual({ status: 'read', bytes: NOT_UTF8 });
      expect(await s.fs.readBytes(`${root}/dir/empty`, { maxBytes: 0 })).toEqual({ status: 'read', bytes: bytes() });
    });

    it('refuses to read through a final link, a missing path, a directory or a special node', async () => {
      await tree();
      expect(await s.fs.readBytes(`${root}/dir/link-to-file`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'symlink' });
      expect(await s.fs.readBytes(`${root}/dir/dangling`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'symlink' });
      expect(await s.fs.readBytes(`${root}/dir/nope`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'missing' });
      expect(await s.fs.readBytes(`${root}/dir/a.md/x`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'missing' });
      expect(await s.fs.readBytes(`${root}/dir/sub`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'not-a-file' });
      expect(await s.fs.readBytes(`${root}/dir/fifo`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'not-a-file' });
    });

    it('reads into a caller buffer of maxBytes + 1 bytes, returning a view of it', async () => {
      await tree();
      const into = new Uint8Array(8).fill(7);
      const read = await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 5, into: into.subarray(1, 7) });
      expect(read).toEqual({ status: 'read', bytes: text('hello') });
      expect(read.status === 'read' && read.bytes.buffer).toBe(into.buffer);
      expect([...into]).toEqual([7, ...text('hello'), 7, 7]);
      const small = await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 5, into: new Uint8Array(5) });
      expect(small).toEqual({ status: 'read', bytes: text('hello') });
    });

    it('refuses a body over maxBytes and accepts one exactly at it', async () => {
      await tree();
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 4 })).toEqual({ status: 'refused', reason: 'too-large' });
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 5 })).toEqual({ status: 'read', bytes: text('hello') });
    });

    it('pins a read to the listed node: a file replaced by another node after listing is refused', async () => {
      await tree();
      const listing = await s.fs.listEntries(`${root}/dir`, { limit: 100 });
      const listed = listing.status === 'listed' ? listing.entries.find((e) => e.name === 'a.md')! : undefined;
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 5, id: listed!.id })).toEqual({ status: 'read', bytes: text('hello') });
      await s.replaceFile(`${root}/dir/a.md`, text('HELLO'));
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 5, id: listed!.id })).toEqual({ status: 'refused', reason: 'changed' });
    });

    it('never follows a link put in place of a listed file', async () => {
      await tree();
      const before = (await s.fs.inspect(`${root}/dir/a.md`))!;
      await s.removeFile(`${root}/dir/a.md`);
      await s.symlink(`${root}/outside.txt`, `${root}/dir/a.md`);
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 100, id: before.id })).toEqual({ status: 'refused', reason: 'symlink' });
      expect(await s.fs.readBytes(`${root}/dir/a.md`, { maxBytes: 100 })).toEqual({ status: 'refused', reason: 'symlink' });
    });

    it('follows links in leading components like the kernel, but the node id still pins the read', async () => {
      await tree();
      await s.writeBytes(`${root}/dir/sub/inner.md`, text('inner'));
      await s.writeBytes(`${root}/dir/sub/other.md`, text('other'));
      const inner = (await s.fs.inspect(`${root}/dir/sub/inner.md`))!;
      const other = (await s.fs.inspect(`${root}/dir/sub/other.md`))!;
      expect(await s.fs.inspect(`${root}/dir/link-to-dir/inner.md`)).toEqual(inner);
      expect(await s.fs.readBytes(`${root}/dir/link-to-dir/inner.md`, { maxBytes: 100, id: inner.id })).toEqual({ status: 'read', bytes: text('inner') });
      expect(await s.fs.readBytes(`${root}/dir/link-to-dir/inner.md`, { maxBytes: 100, id: other.id })).toEqual({ status: 'refused', reason: 'changed' });
    });

    describe('tracker files: regular files only, never through a link, never blocking', () => {
      const own = { maxBytes: 16 };
      const refusal = (reason: string) => expect.objectContaining({ constructor: RefusedFileError, reason });

      it('describes links, special nodes and directories by their signature kind in stat, scan and visitFiles', async () => {
        await tree();
        expect(await s.fs.stat(`${root}/dir/a.md`)).toEqual({ size: 5, mtimeMs: expect.any(Number), ino: expect.any(Number), ctimeMs: expect.any(Number) });
        expect(await s.fs.stat(`${root}/dir/link-to-file`)).toMatchObject({ kind: 'symlink' });
        expect(await s.fs.stat(`${root}/dir/dangling`)).toMatchObject({ kind: 'symlink' });
        expect(await s.fs.stat(`${root}/dir/fifo`)).toMatchObject({ kind: 'other' });
        expect(await s.fs.stat(`${root}/dir/sub`)).toMatchObject({ kind: 'directory' });
        const scanned = Object.fromEntries((await s.fs.scan(`${root}/dir`)).map((e) => [e.name, e.signature.kind ?? 'file']));
        expect(scanned).toEqual({ 'a.md': 'file', 'bom.md': 'file', empty: 'file', 'link-to-file': 'symlink', 'link-to-dir': 'symlink', dangling: 'symlink', fifo: 'other', sub: 'directory' });
        const visited: Record<string, string> = {};
        await s.fs.visitFiles(`${root}/dir`, (name, signature) => (visited[name] = signature.kind ?? 'file'));
        expect(visited).toEqual(scanned);
      });

      it('reads a regular file under its cap, and nothing when it is missing', async () => {
        await tree();
        expect(await s.fs.readText(`${root}/dir/a.md`, own)).toBe('hello');
        expect(await s.fs.readTextRange(`${root}/dir/a.md`, 1, 4, own)).toBe('ell');
        expect(await s.fs.readText(`${root}/dir/nope.md`, own)).toBeUndefined();
        expect(await s.fs.readTextRange(`${root}/dir/nope.md`, 0, 4, own)).toBe('');
      });

      it('refuses a link (to a file or dangling), a FIFO (at once) and a file over the cap', async () => {
        await tree();
        await s.writeBytes(`${root}/dir/big.md`, text('x'.repeat(17)));
        await expect(s.fs.readText(`${root}/dir/link-to-file`, own)).rejects.toEqual(refusal('symlink'));
        await expect(s.fs.readText(`${root}/dir/dangling`, own)).rejects.toEqual(refusal('symlink'));
        await expect(s.fs.readTextRange(`${root}/dir/link-to-file`, 0, 3, own)).rejects.toEqual(refusal('symlink'));
        await expect(s.fs.readText(`${root}/dir/fifo`, own)).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.readTextRange(`${root}/dir/fifo`, 0, 3, own)).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.readText(`${root}/dir/big.md`, own)).rejects.toEqual(refusal('too_large'));
        expect(await s.fs.readText(`${root}/dir/big.md`, { maxBytes: 17 })).toBe('x'.repeat(17));
      });

      it('never appends through a link (nor creates its dangling target) nor into a FIFO', async () => {
        await tree();
        await expect(s.fs.append(`${root}/dir/link-to-file`, 'more')).rejects.toEqual(refusal('symlink'));
        expect(await s.fs.readText(`${root}/outside.txt`)).toBe('secret!');
        await expect(s.fs.append(`${root}/dir/dangling`, 'more')).rejects.toEqual(refusal('symlink'));
        expect(await s.fs.stat(`${root}/nowhere`)).toBeUndefined();
        await expect(s.fs.append(`${root}/dir/fifo`, 'more')).rejects.toEqual(refusal('not_a_regular_file'));
        await s.fs.append(`${root}/dir/a.md`, '!');
        expect(await s.fs.readText(`${root}/dir/a.md`)).toBe('hello!');
      });

      it('never cuts back through a link nor a FIFO (an append rolled back touches only the regular file it wrote)', async () => {
        await tree();
        await expect(s.fs.truncate(`${root}/dir/link-to-file`, 1)).rejects.toEqual(refusal('symlink'));
        expect(await s.fs.readText(`${root}/outside.txt`)).toBe('secret!');
        await expect(s.fs.truncate(`${root}/dir/dangling`, 0)).rejects.toEqual(refusal('symlink'));
        expect(await s.fs.stat(`${root}/nowhere`)).toBeUndefined();
        await expect(s.fs.truncate(`${root}/dir/fifo`, 0)).rejects.toEqual(refusal('not_a_regular_file'));
        await s.fs.truncate(`${root}/dir/a.md`, 4);
        expect(await s.fs.readText(`${root}/dir/a.md`, own)).toBe('hell');
      });

      it('refuses a directory as a tracker file: no read, append, cut back or replace, no exclusive create', async () => {
        await tree();
        const dir = `${root}/dir/sub`;
        await expect(s.fs.readText(dir, own)).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.readTextRange(dir, 0, 3, own)).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.append(dir, 'more')).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.truncate(dir, 0)).rejects.toEqual(refusal('not_a_regular_file'));
        await expect(s.fs.writeAtomic(dir, 'new')).rejects.toEqual(refusal('not_a_regular_file'));
        expect(await s.fs.createExclusive(dir, 'new')).toBe(false);
        expect(await s.fs.inspect(dir)).toMatchObject({ kind: 'directory' });
      });

      it('refuses to replace a link or a FIFO atomically, and creates nothing exclusively over a link', async () => {
        await tree();
        await expect(s.fs.writeAtomic(`${root}/dir/link-to-file`, 'new')).rejects.toEqual(refusal('symlink'));
        await expect(s.fs.writeAtomic(`${root}/dir/dangling`, 'new')).rejects.toEqual(refusal('symlink'));
        await expect(s.fs.writeAtomic(`${root}/dir/fifo`, 'new')).rejects.toEqual(refusal('not_a_regular_file'));
        expect(await s.fs.readText(`${root}/outside.txt`)).toBe('secret!');
        expect(await s.fs.stat(`${root}/dir/link-to-file`)).toMatchObject({ kind: 'symlink' });
        expect(await s.fs.createExclusive(`${root}/dir/dangling`, 'new')).toBe(false);
        expect(await s.fs.stat(`${root}/nowhere`)).toBeUndefined();
      });
    });

    describe('a tracker confined to its root: no write below a linked directory', () => {
      const refusal = (reason: string, path: string) => expect.objectContaining({ constructor: RefusedFileError, reason, data: expect.objectContaining({ path }) });

      async function linkedTracker(): Promise<{ tracker: FileSystem; pm: string; outside: string }> {
        const pm = `${root}/project/.agents/pm`;
        const outside = `${root}/outside`;
        await s.mkdir(`${pm}/history`);
        await s.writeBytes(`${outside}/pm-aaaaaa.md`, text('theirs'));
        await s.writeBytes(`${root}/plain-file`, text('plain'));
        await s.symlink(outside, `${pm}/items`);
        await s.symlink(outside, `${pm}/.runtime`);
        await s.symlink(`${root}/plain-file`, `${pm}/history/sub`);
        return { tracker: confinedFileSystem(s.fs, pm), pm, outside };
      }

      it('refuses every kind of write through a linked items/ or .runtime/, naming the link, and changes nothing outside', async () => {
        const { tracker, pm, outside } = await linkedTracker();
        await expect(tracker.writeAtomic(`${pm}/items/pm-aaaaaa.md`, 'ours')).rejects.toEqual(refusal('symlink', `${pm}/items`));
        await expect(tracker.createExclusive(`${pm}/items/pm-bbbbbb.md`, 'ours')).rejects.toEqual(refusal('symlink', `${pm}/items`));
        await expect(tracker.append(`${pm}/.runtime/idempotency.jsonl`, 'x\n')).rejects.toEqual(refusal('symlink', `${pm}/.runtime`));
        await expect(tracker.truncate(`${pm}/items/pm-aaaaaa.md`, 0)).rejects.toEqual(refusal('symlink', `${pm}/items`));
        await expect(tracker.remove(`${pm}/items/pm-aaaaaa.md`)).rejects.toEqual(refusal('symlink', `${pm}/items`));
        await expect(tracker.ensureDir(`${pm}/.runtime/exports`)).rejects.toEqual(refusal('symlink', `${pm}/.runtime`));
        await expect(tracker.ensureDir(`${pm}/items`)).rejects.toEqual(refusal('symlink', `${pm}/items`));
        expect(await s.fs.readText(`${outside}/pm-aaaaaa.md`)).toBe('theirs');
        expect(await s.fs.stat(`${outside}/pm-bbbbbb.md`)).toBeUndefined();
        expect(await s.fs.stat(`${outside}/exports`)).toBeUndefined();
        expect(await s.fs.stat(`${outside}/idempotency.jsonl`)).toBeUndefined();
      });

      it('refuses a write below a leading entry that is not a directory', async () => {
        const { tracker, pm } = await linkedTracker();
        await s.writeBytes(`${pm}/history/file`, text('x'));
        await expect(tracker.append(`${pm}/history/file/x.jsonl`, 'x')).rejects.toEqual(refusal('not_a_regular_file', `${pm}/history/file`));
        await expect(tracker.writeAtomic(`${pm}/history/sub/x.jsonl`, 'x')).rejects.toEqual(refusal('symlink', `${pm}/history/sub`));
        expect(await s.fs.readText(`${root}/plain-file`)).toBe('plain');
      });

      it('writes through real directories, makes missing ones, follows a linked root and leaves paths outside the root alone', async () => {
        const { tracker, pm } = await linkedTracker();
        await tracker.append(`${pm}/history/pm-aaaaaa.jsonl`, 'line\n');
        await tracker.writeAtomic(`${pm}/fresh/deeper/x.md`, 'new');
        expect(await s.fs.readText(`${pm}/fresh/deeper/x.md`)).toBe('new');
        await s.mkdir(`${root}/elsewhere`);
        await s.symlink(`${root}/elsewhere`, `${root}/linked-root`);
        const linkedRoot = confinedFileSystem(s.fs, `${root}/linked-root`);
        await linkedRoot.writeAtomic(`${root}/linked-root/items/pm-cccccc.md`, 'kept elsewhere');
        expect(await s.fs.readText(`${root}/elsewhere/items/pm-cccccc.md`)).toBe('kept elsewhere');
        await tracker.writeAtomic(`${root}/project/.gitattributes`, 'outside the root');
        expect(await s.fs.readText(`${root}/project/.gitattributes`)).toBe('outside the root');
      });
    });

    it('watchTree reports changes at any depth with their relative path, until stopped; a missing dir is not watched', async () => {
      await tree();
      const seen: (string | undefined)[] = [];
      let wake: (() => void) | undefined;
      const stop = s.fs.watchTree(`${root}/dir`, (name) => {
        seen.push(name);
        wake?.();
      });
      const saw = (path: string) =>
        new Promise<void>((resolve) => {
          const check = () => (seen.includes(path) ? resolve() : undefined);
          wake = check;
          check();
        });
      await s.writeBytes(`${root}/dir/sub/deep.md`, text('deep'));
      await saw('sub/deep.md');
      await s.writeBytes(`${root}/dir/top.md`, text('top'));
      await saw('top.md');
      stop();
      expect(s.fs.watchTree(`${root}/missing`, () => seen.push('never'))).toEqual(expect.any(Function));
      expect(seen).not.toContain('never');
    });

    it('cuts a file back to its first bytes (an interrupted append undone), keeping its inode; a missing file is no error', async () => {
      const path = `${root}/log.jsonl`;
      await s.fs.append(path, 'one\n');
      const inode = (await s.fs.stat(path))!.ino;
      await s.fs.append(path, 'two, torn');
      await s.fs.truncate(path, 4);
      expect(await s.fs.readText(path)).toBe('one\n');
      expect(await s.fs.stat(path)).toMatchObject({ size: 4, ino: inode });
      await s.fs.append(path, '€\n');
      expect(await s.fs.readText(path)).toBe('one\n€\n');
      await expect(s.fs.truncate(`${root}/missing.jsonl`, 0)).resolves.toBeUndefined();
      expect(await s.fs.stat(`${root}/missing.jsonl`)).toBeUndefined();
    });
  });
}
