import { jest } from '@jest/globals';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd } from '../support/child-processes.js';
import { useTempDir } from '../support/temp-dir.js';

// `pm completion bash|zsh|fish` loaded into the real shells (Debian's bash-completion, zsh and
// fish, provisioned by scripts/install-shells.sh) and asked to complete half-typed command lines
// over a real tracker: commands, subcommands, long and short flags, statuses, types, tags, ids.
// bash runs its completion function as readline would (COMP_WORDS, COMP_CWORD), fish its own
// `complete -C`; zsh is an interactive shell with compinit, driven through zpty, and what it
// lists after the TAB is read from its screen.
jest.setTimeout(120_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const [BASH, ZSH, FISH] = (process.env.PM_TEST_SHELLS ?? '').split(' ');

describe('pm completion in bash, zsh and fish (real shells, real pm)', () => {
  const temp = useTempDir('pm-completion-');

  async function setUp() {
    const dir = temp();
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'pm'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    await chmod(join(bin, 'pm'), 0o755);
    const project = join(dir, 'project');
    await mkdir(project);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, PM_ACTOR: 'tester', HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') };
    for (const key of ['PM_ROOT', 'PM_DEBUG']) delete env[key];
    const run = async (command: string, args: string[]) => {
      const result = await runToEnd(command, args, { cwd: project, env });
      if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return result.stdout;
    };
    await run(process.execPath, [BIN, 'init']);
    const create = async (...args: string[]) => (JSON.parse(await run(process.execPath, [BIN, 'create', ...args, '--json'])) as { item: { id: string } }).item.id;
    const open = await create('Open work', '--tag', 'auth,ui');
    const closed = await create('Finished', '--tag', 'zeta');
    await run(process.execPath, [BIN, 'close', closed, '--evidence', 'shipped']);
    return { run, open, closed };
  }

  /** What bash offers for `line` (the cursor at its end), through bash-completion and pm's script. */
  const bash = (s: Awaited<ReturnType<typeof setUp>>, line: string) => s.run(BASH!, ['--norc', '-c', `
    source /usr/share/bash-completion/bash_completion
    source <(pm completion bash)
    COMP_LINE=${quote(line)}; COMP_POINT=\${#COMP_LINE}
    read -r -a COMP_WORDS <<< "$COMP_LINE"
    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
    _pm pm "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\\n' "\${COMPREPLY[@]}"`]).then(lines);

  /** What fish offers for `line`: its own `complete -C`, words only. */
  const fish = (s: Awaited<ReturnType<typeof setUp>>, line: string) => s.run(FISH!, ['--no-config', '-c', `pm completion fish | source; complete -C ${quote(line)}`]).then((out) => lines(out).map((l) => l.split('\t')[0]!));

  /**
   * What zsh shows for `line` after a TAB: an interactive zsh with compinit, driven through
   * zpty (compsys runs only inside a completion widget), its screen with escapes removed,
   * from the TAB to the next prompt.
   */
  const zsh = (s: Awaited<ReturnType<typeof setUp>>, line: string) => s.run(ZSH!, ['-f', '-c', `
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z 'PROMPT="> "; autoload -Uz compinit; compinit -u -D; source <(pm completion zsh); zstyle ":completion:*" list-prompt ""; zstyle ":completion:*" menu no; LISTMAX=10000; unsetopt listambiguous; print -r RE""ADY'
    n=0
    while zpty -r -t z chunk || { sleep 0.1; (( n++ < 300 )) }; do [[ $chunk == *READY* ]] && break; done
    zpty -n -w z ${quote(line)}$'\t'
    sleep 1
    zpty -n -w z $'\x15'
    zpty -w z 'print -r DO""NE'
    out='' n=0
    while zpty -r -t z chunk || { sleep 0.1; (( n++ < 300 )) }; do out+=$chunk; [[ $chunk == *DONE* ]] && break; done
    zpty -d z
    print -r -- "\${out%%DONE*}"`]).then((out) => out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\r\b]/g, ' '));

  it('bash completes commands, subcommands, flags and their values', async () => {
    const s = await setUp();
    expect(await bash(s, 'pm li')).toEqual(['list']);
    expect(await bash(s, 'pm deps ')).toEqual(expect.arrayContaining(['add', 'remove', s.open, s.closed]));
    expect(await bash(s, 'pm merge ')).toEqual(['install', 'uninstall', 'check', 'fix-ids', 'driver']);
    expect(await bash(s, 'pm completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(await bash(s, 'pm list --status ')).toEqual(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']);
    expect(await bash(s, 'pm create x --type T')).toEqual(['Task']);
    expect(await bash(s, 'pm update x --add-tag ')).toEqual(['auth', 'ui', 'zeta']);
    expect(await bash(s, 'pm create x -')).toEqual(expect.arrayContaining(['-p', '--priority', '--tag', '--json', '-h']));
    expect(await bash(s, 'pm close ')).toEqual([s.open, s.closed]);
  });

  it('fish completes commands, subcommands, flags and their values', async () => {
    const s = await setUp();
    expect(await fish(s, 'pm li')).toEqual(['list']);
    expect(await fish(s, 'pm skills ')).toEqual(expect.arrayContaining(['list', 'show', 'check']));
    expect(await fish(s, 'pm list --status ')).toEqual(expect.arrayContaining(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']));
    expect(await fish(s, 'pm create x --type ')).toEqual(expect.arrayContaining(['Epic', 'Task']));
    expect(await fish(s, 'pm list --tag ')).toEqual(['auth', 'ui', 'zeta']);
    expect(await fish(s, 'pm list -')).toEqual(expect.arrayContaining(['-a', '-n', '--all']));
    expect(await fish(s, 'pm get ')).toEqual([s.open, s.closed]);
  });

  it('zsh (compinit, a real completion widget) completes commands, subcommands, flags and values with descriptions', async () => {
    const s = await setUp();
    expect(await zsh(s, 'pm li')).toContain('pm list ');
    const words = async (line: string) => (await zsh(s, line)).split(/\s+/);
    expect(await words('pm list --status ')).toEqual(expect.arrayContaining(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']));
    expect(await words('pm create x --type ')).toEqual(expect.arrayContaining(['Epic', 'Feature', 'Task', 'Chore', 'Issue', 'Decision']));
    expect(await words('pm update x --add-tag ')).toEqual(expect.arrayContaining(['auth', 'ui', 'zeta']));
    expect(await words('pm deps ')).toEqual(expect.arrayContaining(['add', 'remove', s.open, s.closed]));
    const ids = await zsh(s, 'pm close ');
    expect(ids).toMatch(new RegExp(`${s.open} +-- open · Open work`));
    expect(ids).toMatch(new RegExp(`${s.closed} +-- closed · Finished`));
  });
});

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function lines(out: string): string[] {
  return out.split('\n').filter(Boolean);
}
