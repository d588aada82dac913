import { PmMcpInvalidParamsError } from '../../../../src/domain/errors/index.js';
import { decodePmSkillCursor, encodePmSkillCursor } from '../../../../src/domain/skills/cursor.js';

const DIGEST = 'sha256:' + 'a'.repeat(64);
const OTHER = 'sha256:' + 'b'.repeat(64);

function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PmMcpInvalidParamsError);
    const rpc = (error as PmMcpInvalidParamsError).toJsonRpcError();
    return { code: rpc.code, message: rpc.message };
  }
  throw new Error('not refused');
}

describe('skill cursors', () => {
  it('round-trips an offset and is opaque base64url', () => {
    const cursor = encodePmSkillCursor('skills/list', DIGEST, 7);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePmSkillCursor(cursor, 'skills/list', DIGEST, 10)).toBe(7);
  });

  it('refuses a cursor of another registry as stale (-32602), never re-basing it', () => {
    const cursor = encodePmSkillCursor('skills/list', DIGEST, 2);
    expect(refusal(() => decodePmSkillCursor(cursor, 'skills/list', OTHER, 10))).toEqual({ code: -32602, message: expect.stringMatching(/^Stale cursor/) });
  });

  it('refuses a cursor of another list', () => {
    const cursor = encodePmSkillCursor('resources/directory/read skill://a', DIGEST, 2);
    expect(refusal(() => decodePmSkillCursor(cursor, 'resources/directory/read skill://b', DIGEST, 10)).message).toMatch(/different list/);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not JSON', 'bm90IGpzb24'],
    ['JSON of the wrong shape', Buffer.from('{"v":2}').toString('base64url')],
    ['absurdly long', 'A'.repeat(5000)],
  ])('refuses a malformed cursor: %s', (_label, cursor) => {
    expect(refusal(() => decodePmSkillCursor(cursor, 'skills/list', DIGEST, 10)).code).toBe(-32602);
  });

  it('refuses offsets outside the list (0 is never issued; the end has no cursor)', () => {
    for (const offset of [0, 10, 11, -1, 1.5]) {
      const cursor = encodePmSkillCursor('skills/list', DIGEST, offset);
      expect(refusal(() => decodePmSkillCursor(cursor, 'skills/list', DIGEST, 10)).code).toBe(-32602);
    }
  });

  it('refuses a cursor that is not a string', () => {
    expect(refusal(() => decodePmSkillCursor(42, 'skills/list', DIGEST, 10)).message).toMatch(/must be a string/);
  });
});
