import { closest, parseCommandArgs, parseGlobalArgs, parseWith, splitArgv, wantsJson } from '../../../../src/adapters/cli/argv.js';
import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import type { CliCommand } from '../../../../src/adapters/cli/command.js';
import { z } from 'zod';
import { thrownBy } from '../../../support/thrown.js';

const known = new Set(['list', 'deps', 'deps add', 'get']);
const isCommand = (name: string) => known.has(name);

const command: Pick<CliCommand, 'name' | 'args' | 'options'> = {
  name: 'demo',
  args: [{ name: 'id' }],
  options: {
    limit: { type: 'string', description: '' },
    all: { type: 'boolean', short: 'a', description: '' },
    tag: { type: 'string', multiple: true, description: '' },
  },
};

const usageError = (fn: () => unknown) => thrownBy(fn, UsageError);

describe('splitArgv', () => {
  it('finds the command after global options, skipping their values', () => {
    expect(splitArgv(['--json', 'list', '--all'], isCommand)).toEqual({ command: 'list', rest: ['--json', '--all'] });
    expect(splitArgv(['--actor', 'list', 'get', 'pm-abc'], isCommand)).toEqual({ command: 'get', rest: ['--actor', 'list', 'pm-abc'] });
    expect(splitArgv(['--root=/x', 'get', 'pm-abc'], isCommand)).toEqual({ command: 'get', rest: ['--root=/x', 'pm-abc'] });
  });

  it('joins a group and its subcommand, but not a group and its argument', () => {
    expect(splitArgv(['deps', 'add', 'pm-abc', '--blocks', 'pm-def'], isCommand)).toEqual({ command: 'deps add', rest: ['pm-abc', '--blocks', 'pm-def'] });
    expect(splitArgv(['deps', 'pm-abc'], isCommand)).toEqual({ command: 'deps', rest: ['pm-abc'] });
  });

  it('reports no command for empty argv or argv after --', () => {
    expect(splitArgv([], isCommand).command).toBeUndefined();
    expect(splitArgv(['--json'], isCommand)).toEqual({ rest: ['--json'] });
    expect(splitArgv(['--', 'list'], isCommand).command).toBeUndefined();
  });
});

describe('wantsJson', () => {
  it('looks for --json before a -- separator only', () => {
    expect(wantsJson(['list', '--json'])).toBe(true);
    expect(wantsJson(['list'])).toBe(false);
    expect(wantsJson(['comment', 'pm-abc', '--', '--json'])).toBe(false);
  });
});

describe('parseCommandArgs', () => {
  it('parses command options and globals wherever they appear', () => {
    const { args, globals } = parseCommandArgs(command, ['--json', 'pm-abc', '-a', '--tag', 'x', '--tag', 'y', '--actor', 'bob', '--limit=5']);
    expect(args.positionals).toEqual(['pm-abc']);
    expect(args.values).toMatchObject({ all: true, tag: ['x', 'y'], limit: '5' });
    expect(globals).toEqual({ json: true, help: false, version: false, actor: 'bob' });
  });

  it('names unknown options and suggests a near miss', () => {
    const error = usageError(() => parseCommandArgs(command, ['pm-abc', '--limt', '3']));
    expect(error.message).toBe("unknown option '--limt'; did you mean '--limit'?");
    expect(error.hint).toBe('pm demo --help');
    expect(error.exitCode).toBe(2);
    expect(usageError(() => parseCommandArgs(command, ['pm-abc', '--zzzzzz'])).message).toBe("unknown option '--zzzzzz'");
  });

  it('explains missing and unexpected option values', () => {
    expect(usageError(() => parseCommandArgs(command, ['pm-abc', '--limit'])).message).toBe("option '--limit' needs a value");
    expect(usageError(() => parseCommandArgs(command, ['pm-abc', '--all=yes'])).message).toBe("option '--all' takes no value");
    expect(usageError(() => parseCommandArgs(command, ['pm-abc', '--limit', '-3'])).message).toMatch(/write --limit=VALUE/);
  });

  it('checks the number of positionals unless help is asked for', () => {
    expect(usageError(() => parseCommandArgs(command, [])).message).toBe('missing <id>');
    expect(usageError(() => parseCommandArgs(command, ['a', 'b'])).message).toBe("unexpected argument 'b'");
    expect(parseCommandArgs(command, ['--help']).globals.help).toBe(true);
    const variadic = { ...command, args: [{ name: 'words', variadic: true }] };
    expect(parseCommandArgs(variadic, ['a', 'b', 'c']).args.positionals).toEqual(['a', 'b', 'c']);
    expect(usageError(() => parseCommandArgs(variadic, [])).message).toBe('missing <words...>');
  });

  it('allows only global options without a command', () => {
    expect(parseGlobalArgs(['--version']).version).toBe(true);
    expect(usageError(() => parseGlobalArgs(['--all'])).hint).toBe('pm --help');
    expect(usageError(() => parseGlobalArgs(['--json', 'stray'])).message).toBe("unexpected argument 'stray'");
  });
});

describe('parseWith', () => {
  const schema = z.object({ id: z.string({ error: 'missing item id' }), limit: z.string().regex(/^\d+$/, 'not a number').optional() });

  it('returns the parsed value', () => {
    expect(parseWith(schema, { id: 'pm-abc', limit: '3' }, 'demo', ['id'])).toEqual({ id: 'pm-abc', limit: '3' });
  });

  it('labels the failing option or argument', () => {
    expect(usageError(() => parseWith(schema, { id: 'pm-abc', limit: 'x' }, 'demo', ['id'])).message).toBe('--limit: not a number');
    expect(usageError(() => parseWith(schema, {}, 'demo', ['id'])).message).toBe('<id>: missing item id');
  });
});

describe('closest', () => {
  it('suggests within two edits only', () => {
    expect(closest('lsit', ['list', 'get'])).toBe('list');
    expect(closest('creat', ['create', 'claim'])).toBe('create');
    expect(closest('frobnicate', ['list', 'get'])).toBeUndefined();
    // A transposition is one edit: `lsit` is list, not init (the MCP edge's distance, one for all).
    expect(closest('lsit', ['init', 'list'])).toBe('list');
    expect(closest('LIST', ['init', 'list'])).toBe('list');
  });
});

describe('empty values', () => {
  const command = { name: 'demo', args: [], options: { assignee: { type: 'string' as const, value: 'NAME', description: '', emptyHint: 'to remove the assignee, use --unassign' }, tag: { type: 'string' as const, multiple: true, value: 'TAG', description: '' }, body: { type: 'string' as const, description: '', allowEmpty: true } } };
  const refusal = (argv: string[]) => { try { parseCommandArgs(command, argv); } catch (error) { return (error as Error).message; } return 'accepted'; };

  it('refuses an empty or blank value with the option, what it expects and what to do instead', () => {
    expect(refusal(['--assignee', ''])).toBe('--assignee: the value is empty (expected NAME; to remove the assignee, use --unassign)');
    expect(refusal(['--tag', 'a', '--tag', ' '])).toBe('--tag: the value is empty (expected TAG)');
  });

  it('accepts an empty value where the option gives it a meaning', () => {
    expect(refusal(['--body', ''])).toBe('accepted');
  });
});

describe('values outside a closed set', () => {
  it('name the nearest allowed value, case-insensitively, in CLI words (no raw zod message)', async () => {
    const { z } = await import('zod');
    const schema = z.object({ sort: z.enum(['priority', 'created']).optional(), name: z.string().min(1).optional(), n: z.number().optional() });
    const message = (raw: Record<string, unknown>) => usageError(() => parseWith(schema, raw, 'demo')).message;
    expect(message({ sort: 'prioirty' })).toBe("--sort: unknown value 'prioirty'; did you mean priority? expected one of: priority, created");
    expect(message({ sort: 'Created' })).toBe("--sort: unknown value 'Created'; did you mean created? expected one of: priority, created");
    expect(message({ name: '' })).toBe('--name: the value is empty');
    expect(message({ n: 'x' })).toBe('--n: expected a number');
  });
});
