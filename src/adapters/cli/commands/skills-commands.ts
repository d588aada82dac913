import { z } from 'zod';
import { NotFoundError } from '../../../domain/errors/index.js';
import { EXIT } from '../../../domain/errors/pm-error.js';
import { formatPmSkillDiagnostic } from '../../../domain/skills/diagnostics.js';
import { pmSkillNameProblem } from '../../../domain/skills/skill-name.js';
import { PM_SKILL_MD } from '../../../domain/skills/skill-uri.js';
import { parseWith } from '../argv.js';
import { UsageError } from '../usage-error.js';
import type { CliCommand, CliContext, CommandOutcome } from '../command.js';
import { notServedMessage, renderSkill, renderSkillCheck, renderSkillList } from '../render/skills-view.js';
import { diagnosticsOf, findSkill, skillCheckReport } from '../skill-view.js';

/**
 * `pm skills`: the skills pm's MCP servers serve over this tracker (seed 000 "Skills over MCP"),
 * from the same registry a host reads through `skills/list`, `skills/get` and `resources/read`:
 * the package's skills, and the workspace's `.agents/skills/` overriding them by name.
 */

const OVERVIEW = 'The skills pm serves to MCP hosts (SEP-2640): the package\'s own, and the repository\'s .agents/skills/<name>/, which overrides a package skill of the same name. Skill text is guidance, never permission: every skill is marked untrusted, overrides included.';

async function listSkills({ services }: CliContext): Promise<CommandOutcome> {
  const registry = await services.skills();
  return { value: { digest: registry.digest, skills: registry.entries(), rejected: registry.diagnostics.length }, human: renderSkillList(registry) };
}

/** `pm skills`: the same as `pm skills list`. */
export const skillsCommand: CliCommand = {
  name: 'skills',
  summary: 'Skills served to MCP hosts (subcommands: skills list, skills show, skills check)',
  description: `${OVERVIEW} Without a subcommand this is pm skills list.`,
  args: [],
  options: {},
  examples: ['pm skills', 'pm skills show pm-user', 'pm skills check'],
  run: (_args, context) => listSkills(context),
};

/** `pm skills list`: name, origin, token estimate and description of every served skill. */
export const skillsListCommand: CliCommand = {
  name: 'skills list',
  summary: 'List the served skills: name, origin, token estimate, description',
  description: `${OVERVIEW} JSON: { digest, skills, rejected }, skills being the entries skills/list returns.`,
  args: [],
  options: {},
  examples: ['pm skills list', 'pm skills list --json'],
  run: (_args, context) => listSkills(context),
};

const showSchema = z.object({ name: z.string({ error: 'missing skill name' }).min(1, 'missing skill name') });

/** `pm skills show <name>`: one skill as a host sees it, with its SKILL.md. */
export const skillsShowCommand: CliCommand = {
  name: 'skills show',
  summary: 'Show one skill: origin, trust, front matter, files with sizes and digests, SKILL.md',
  description: 'Shows the skill exactly as skills/get describes it, and the text resources/read returns for its SKILL.md. An unknown skill is exit 3 (a rejected one says why); a name that no skill could have is exit 2. JSON: { skill, skillMd }.',
  args: [{ name: 'name' }],
  options: {},
  examples: ['pm skills show pm-developer', 'pm skills show pm-sdk --json'],
  async run(args, { services }) {
    const { name } = parseWith(showSchema, { name: args.positionals[0] }, 'skills show', ['name']);
    const registry = await services.skills();
    const skill = findSkill(registry, name);
    if (!skill) {
      const rejections = diagnosticsOf(registry, name).map(formatPmSkillDiagnostic);
      const problem = pmSkillNameProblem(name);
      if (rejections.length === 0 && problem) throw new UsageError(`<name>: ${problem}`, 'skills show', { skill: name });
      throw new NotFoundError(notServedMessage(name, rejections), { skill: name, rejections });
    }
    const content = registry.read(skill.uri).contents[0];
    const skillMd = 'text' in content ? content.text : '';
    return { value: { skill, skillMd }, human: renderSkill(skill, skillMd) };
  },
};

/** `pm skills check`: every rejection of the load, exit 5 when there is any. */
export const skillsCheckCommand: CliCommand = {
  name: 'skills check',
  summary: `Report every rejected skill (exit ${EXIT.invalid} when one was rejected)`,
  description: `Loads the skills as pm-mcp does and prints each rejection (name, rule, limit, where, why), then the verdict. Exit 0 when nothing was rejected, exit ${EXIT.invalid} when something was: a rejected override leaves the package skill served, a rejected new skill is not served at all. The ${PM_SKILL_MD} of each skill must start with front matter whose name equals its directory. JSON: { ok, digest, served, rejected, diagnostics }.`,
  args: [],
  options: {},
  examples: ['pm skills check', 'pm skills check --json'],
  async run(_args, { services }) {
    const report = skillCheckReport(await services.skills());
    return { value: report, human: renderSkillCheck(report), exitCode: report.ok ? EXIT.ok : EXIT.invalid };
  },
};
