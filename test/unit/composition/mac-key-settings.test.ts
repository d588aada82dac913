import { settingsFromEnv, SettingsError } from '../../../src/composition/settings.js';

const keys = (value: string | undefined) => settingsFromEnv(value === undefined ? {} : { PM_MCP_MAC_KEYS: value }, '/work', 'alice').macKeys;
const b64 = (fill: number, length = 32) => Buffer.alloc(length, fill).toString('base64');

test('unset or empty: no configured keys (the task store keeps them)', () => {
  expect(keys(undefined)).toBeUndefined();
  expect(keys('  ')).toBeUndefined();
});

test('base64 and base64url keys, separated by commas or whitespace, in order', () => {
  const url = Buffer.alloc(48, 0xfb).toString('base64url');
  const parsed = keys(`${b64(1)}, ${url}\n${b64(3, 64)}`)!;
  expect(parsed.map((key) => key.length)).toEqual([32, 48, 64]);
  expect(parsed[0]![0]).toBe(1);
  expect(parsed[1]![0]).toBe(0xfb);
  expect(parsed[2]![0]).toBe(3);
});

test('a bad key stops startup, named by position and never printed', () => {
  const short = b64(2, 16);
  expect(() => keys(`${b64(1)},${short}`)).toThrow(SettingsError);
  expect(() => keys(`${b64(1)},${short}`)).toThrow(/PM_MCP_MAC_KEYS \(macKeys\): key 2 of 2 is 16 bytes; a key needs at least 32/);
  expect(() => keys(`${b64(1)},${short}`)).not.toThrow(new RegExp(short.replace(/[+/=]/g, '.')));
  expect(() => keys('not*base64!')).toThrow(/key 1 of 1 is not base64 or base64url/);
  expect(() => keys(b64(4, 2000))).toThrow(/key 1 of 1 is 2000 bytes; at most 1024/);
  expect(() => keys(`${b64(5)} ${b64(5)}`)).toThrow(/key 2 of 2 is listed twice/);
});
