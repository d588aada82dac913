import { parseArgs } from 'node:util';
import { z } from 'zod';
import { normalizeMcpHttpOrigin } from '../domain/mcp/http/http-security.js';
import { SettingsError } from './settings.js';

export { PM_MCP_HTTP_USAGE } from './http-usage.js';

/**
 * pm-mcp-http's transport settings (docs/HTTP.md "Configuration"), parsed once by zod from the
 * environment and the command line (flags win). Authorization settings are parsed separately
 * (auth-settings.ts).
 */

const list = (text: string | undefined): string[] | undefined => (text === undefined ? undefined : text.split(/[\s,]+/).filter(Boolean));

export const httpSettingsSchema = z
  .object({
    /** PM_MCP_HTTP_HOST / --host: the bind address (default loopback). */
    host: z.string().min(1).default('127.0.0.1'),
    /** PM_MCP_HTTP_PORT / --port: 0 picks a free port. */
    port: z.number().int().min(0).max(65535).default(8787),
    /** PM_MCP_HTTP_PATH / --path: the one MCP endpoint path. */
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/, 'must start with / and hold only URL path characters (no query, no fragment)')
      .refine((p) => !p.startsWith('/.well-known'), 'must not be under /.well-known')
      .default('/mcp'),
    /** PM_MCP_HTTP_ALLOWED_ORIGINS / --allow-origin: extra browser origins, exact. */
    allowedOrigins: z.array(z.string()).default([]),
    /** PM_MCP_HTTP_ALLOWED_HOSTS / --allow-host: extra Host values (host or host:port), exact. */
    allowedHosts: z.array(z.string().regex(/^[^\s/?#@]+$/, 'must be host or host:port')).default([]),
    /** PM_MCP_HTTP_MAX_BODY_BYTES / --max-body-bytes: larger bodies get 413 (default 1 MiB). */
    maxBodyBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
    /** PM_MCP_HTTP_MAX_HEADER_BYTES / --max-header-bytes: node maxHeaderSize (default 16 KiB; larger → 431). */
    maxHeaderBytes: z.number().int().min(1024).max(1024 * 1024).default(16 * 1024),
    /** PM_MCP_HTTP_INIT=0 / --no-init: refuse to start without a tracker instead of creating one. */
    initTracker: z.boolean().default(true),
    /** --skills-declaration: overrides PM_MCP_SKILLS_DECLARATION (docs/SKILLS.md). */
    skillsDeclaration: z.enum(['required', 'optional']).optional(),
  })
  .superRefine((s, ctx) => {
    for (const origin of s.allowedOrigins) {
      try {
        normalizeMcpHttpOrigin(origin);
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['allowedOrigins'], message: (error as Error).message });
      }
    }
  });

export type HttpSettings = z.infer<typeof httpSettingsSchema>;

/** The outcome of reading the command line: settings, or a request for the usage text or the version. */
export type HttpCommandLine = { readonly kind: 'serve'; readonly settings: HttpSettings } | { readonly kind: 'help' } | { readonly kind: 'version' };

/** A command line that cannot be read (unknown flag, positional argument): exit 2, like pm's usage errors. */
export class CommandLineError extends SettingsError {}


function integer(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text.trim())) throw new SettingsError(`invalid configuration: ${name} must be a non-negative integer (got ${JSON.stringify(text)})`);
  return Number(text);
}

/** Parses the flags and PM_MCP_HTTP_* variables; throws SettingsError naming the first problem. */
export function httpSettingsFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv): HttpCommandLine {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        path: { type: 'string' },
        'allow-origin': { type: 'string', multiple: true },
        'allow-host': { type: 'string', multiple: true },
        'max-body-bytes': { type: 'string' },
        'max-header-bytes': { type: 'string' },
        'no-init': { type: 'boolean' },
        'skills-declaration': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CommandLineError(`${(error as Error).message} (see pm-mcp-http --help)`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const str = (flag: string, name: string): string | undefined => (values[flag] as string | undefined) ?? (env[name] === '' ? undefined : env[name]);
  const many = (flag: string, name: string): string[] | undefined => {
    const given = values[flag] as string[] | undefined;
    return given ? given.flatMap((v) => list(v) ?? []) : list(env[name]);
  };
  const init = values['no-init'] ? false : env.PM_MCP_HTTP_INIT === undefined || env.PM_MCP_HTTP_INIT === '' ? undefined : !['0', 'false', 'no'].includes(env.PM_MCP_HTTP_INIT);
  const raw = {
    host: str('host', 'PM_MCP_HTTP_HOST'),
    port: integer(str('port', 'PM_MCP_HTTP_PORT'), 'port (--port / PM_MCP_HTTP_PORT)'),
    path: str('path', 'PM_MCP_HTTP_PATH'),
    allowedOrigins: many('allow-origin', 'PM_MCP_HTTP_ALLOWED_ORIGINS'),
    allowedHosts: many('allow-host', 'PM_MCP_HTTP_ALLOWED_HOSTS'),
    maxBodyBytes: integer(str('max-body-bytes', 'PM_MCP_HTTP_MAX_BODY_BYTES'), 'max body bytes (--max-body-bytes / PM_MCP_HTTP_MAX_BODY_BYTES)'),
    maxHeaderBytes: integer(str('max-header-bytes', 'PM_MCP_HTTP_MAX_HEADER_BYTES'), 'max header bytes (--max-header-bytes / PM_MCP_HTTP_MAX_HEADER_BYTES)'),
    initTracker: init,
    skillsDeclaration: values['skills-declaration'] as string | undefined,
  };
  const parsed = httpSettingsSchema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SettingsError(`invalid configuration: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return { kind: 'serve', settings: parsed.data };
}
