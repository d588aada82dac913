import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { parsePmSkillFrontMatter } from '../../../../src/domain/skills/index.js';

const MAX = 64 * 1024;

function front(yaml: string, rest = '# body\n'): string {
  return `---\n${yaml}\n---\n${rest}`;
}

function ok(text: string) {
  const outcome = parsePmSkillFrontMatter(text, MAX);
  if (!outcome.ok) throw new Error(`rejected: ${outcome.problem.rule}: ${outcome.problem.message}`);
  return outcome.value;
}

function rule(text: string, max = MAX): string {
  const outcome = parsePmSkillFrontMatter(text, max);
  return outcome.ok ? 'accepted' : outcome.problem.rule;
}

describe('parsePmSkillFrontMatter', () => {
  it('parses YAML 1.2 core schema and passes values through verbatim', () => {
    const value = ok(front(['name: x', 'description: d', 'date: 2024-01-01', 'octal: 010', 'hex: 0x1F', 'flag: yes', 'on: on', 'real: true', 'none: ~', 'float: 1.5', 'quoted: "010"'].join('\n')));
    expect(value).toEqual({ name: 'x', description: 'd', date: '2024-01-01', octal: 10, hex: 31, flag: 'yes', on: 'on', real: true, none: null, float: 1.5, quoted: '010' });
  });

  it('yields what a host parsing the file with the yaml package finds, after a JSON round trip', () => {
    const yaml = ['name: x', 'description: "multi: colon"', 'metadata:', '  version: 1.0', '  released: 2024-01-01', 'allowed-tools: Bash(git:*) Read', 'list: [a, 010, 0x1F, yes]', 'long: >', '  folded', '  text'].join('\n');
    const value = ok(front(yaml));
    const wire = JSON.parse(JSON.stringify(value));
    const file = parse(yaml) as Record<string, unknown>;
    for (const key of new Set([...Object.keys(file), ...Object.keys(wire)])) expect(isDeepStrictEqual(file[key] ?? null, wire[key] ?? null)).toBe(true);
  });

  it('finds the block after a BOM and with CRLF line ends, and ignores a --- later in the body', () => {
    expect(ok(`\uFEFF---\r\nname: x\r\ndescription: d\r\n---\r\nbody\r\n---\r\nmore`)).toEqual({ name: 'x', description: 'd' });
    expect(ok('---\nname: x\ndescription: d\n---  \n')).toEqual({ name: 'x', description: 'd' });
  });

  it('freezes the result', () => {
    const value = ok(front('name: x\ndescription: d\nmetadata:\n  a: b'));
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.metadata)).toBe(true);
  });

  it.each([
    ['no opening fence', 'name: x\n---\n', 'front-matter-missing'],
    ['no closing fence', '---\nname: x\ndescription: d\n', 'front-matter-missing'],
    ['a fence that is not on its own line', '---\nname: x\n---trailing\n', 'front-matter-missing'],
    ['malformed YAML', front('name: [x\ndescription: d'), 'front-matter-malformed'],
    ['bad indentation', front('name:\n  - a\n - b'), 'front-matter-malformed'],
    ['an unknown tag', front('name: !custom x'), 'front-matter-malformed'],
    ['a tab-indented mapping', front('name: x\nmetadata:\n\tkey: v'), 'front-matter-malformed'],
    ['a duplicate key', front('name: x\ndescription: d\nname: y'), 'front-matter-duplicate-key'],
    ['keys duplicate once resolved (null and ~)', front('null: a\n~: b'), 'front-matter-duplicate-key'],
    ['a nested duplicate key', front('name: x\nmetadata:\n  a: 1\n  a: 2'), 'front-matter-duplicate-key'],
    ['an anchor', front('name: &n x\ndescription: d'), 'front-matter-anchor'],
    ['an anchor on a collection', front('name: x\nmetadata: &m\n  a: b'), 'front-matter-anchor'],
    ['an alias (with its anchor)', front('base: &b {a: 1}\nother: *b'), 'front-matter-anchor'],
    ['a merge key with an alias', front('base: &b {a: 1}\nother:\n  <<: *b'), 'front-matter-anchor'],
    ['a sequence', front('- a\n- b'), 'front-matter-not-mapping'],
    ['a scalar', front('just text'), 'front-matter-not-mapping'],
    ['an empty block', '---\n\n---\n', 'front-matter-not-mapping'],
    ['a timestamp tag (a Date)', front('name: x\nwhen: !!timestamp 2024-01-01'), 'front-matter-not-json'],
    ['binary', front('name: x\ndata: !!binary aGVsbG8='), 'front-matter-not-json'],
    ['a set', front('name: x\ns: !!set {a}'), 'front-matter-not-json'],
    ['infinity', front('name: x\nn: .inf'), 'front-matter-not-json'],
    ['not a number', front('name: x\nn: .nan'), 'front-matter-not-json'],
    ['negative zero', front('name: x\nn: -0'), 'front-matter-not-json'],
    ['an overflowing float', front('name: x\nn: 1e400'), 'front-matter-not-json'],
    ['a collection as a key', front('? [a, b]\n: 1'), 'front-matter-not-json'],
  ])('rejects %s', (_label, text, expected) => {
    expect(rule(text)).toBe(expected);
  });

  it('rejects an alias on its own (the yaml parser accepts a dangling one)', () => {
    expect(rule(front('name: x\nother: *missing'))).toBe('front-matter-alias');
    expect(rule(front('name: x\nlist: [a, *b]'))).toBe('front-matter-alias');
  });

  it('rejects a front matter block larger than the bound before parsing it', () => {
    const yaml = `name: x\ndescription: ${'d'.repeat(200)}`;
    expect(rule(front(yaml), 100)).toBe('front-matter-too-large');
    const outcome = parsePmSkillFrontMatter(front(yaml), 100);
    expect(!outcome.ok && outcome.problem).toMatchObject({ limit: 100, actual: yaml.length });
  });

  it('keeps a __proto__ key as plain data', () => {
    const value = ok(front('name: x\n__proto__:\n  polluted: 1'));
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
