import type { FileSystem } from '../../ports/file-system.js';
import { PM_MCP_MAX_INSTRUCTIONS_LENGTH } from '../mcp/discover.js';
import { definePmMcpServer, type PmMcpServerDescriptor, type PmMcpServerOptions } from '../mcp/server-descriptor.js';
import { PmMcpToolRegistry } from '../mcp/tool-registry.js';
import type { Tracker } from '../tracker/tracker.js';
import { elicitationConsent, type PmMcpConsentResolver } from './consent.js';
import { resolvePmMcpToolSelection, type PmMcpToolName } from './profiles.js';
import { createPmTrackerTools } from './tool-catalog.js';
import { resolvePmMcpActor, type PmTrackerFor, type PmTrackerToolDeps } from './tool-kit.js';
import { createPmTrackerPrompts } from './tracker-prompts.js';
import { createPmTrackerResources } from './tracker-resources.js';

/**
 * The tracker MCP server description (seed 004 "Decision": tools are SDK-backed tracker operations): the profile's
 * tools, the tracker resources and prompts, and bounded instructions, handed to the protocol
 * core's `definePmMcpServer`. The composition layer builds the stdio (and later HTTP) server
 * from the result: `new PmMcpDispatcher(server, createPmMcpMethodRegistry(server))`.
 */

/** What a host passes; everything the core accepts besides tools/resources/prompts passes through. */
export interface PmTrackerMcpServerOptions extends Omit<PmMcpServerOptions, 'tools' | 'resources' | 'prompts' | 'instructions'> {
  readonly tracker: Tracker;
  /**
   * The tracker each request's tools, resources and prompts call (default: `tracker` for all):
   * with tracing on, the composition's per-request view whose operations are child spans of
   * the request's span.
   */
  readonly trackerFor?: PmTrackerFor;
  /** Reads the repository guidance (AGENTS.md, CLAUDE.md) for pm://guidance. */
  readonly fs: FileSystem;
  /** PM_MCP_PROFILE; unset: custom when `tools` names some, else core (see resolvePmMcpToolSelection). */
  readonly profile?: string;
  /** PM_MCP_TOOLS for the custom profile: names, or the raw comma-separated text (blank: unset). */
  readonly tools?: readonly string[] | string;
  /** The actor when a request carries neither a principal nor clientInfo (default: the tracker's own). */
  readonly defaultActor?: string;
  /** How destructive tools obtain consent (default: MRTR elicitation on the modern path, the explicit `confirm: true` argument on the legacy path). */
  readonly consent?: PmMcpConsentResolver;
  /** Replaces the generated instructions. */
  readonly instructions?: string;
}

const WORKFLOW: readonly [PmMcpToolName, string][] = [
  ['pm_context', 'pm_context shows where the project stands'],
  ['pm_next', 'pm_next picks the best ready item'],
  ['pm_claim', 'pm_claim it before working'],
  ['pm_comment', 'pm_comment records progress'],
  ['pm_close', 'pm_close finishes it with evidence (a commit, a passing test, a link)'],
];

/** Short instructions naming the workflow tools the profile offers. */
export function pmTrackerInstructions(tools: readonly PmMcpToolName[]): string {
  const steps = WORKFLOW.filter(([name]) => tools.includes(name)).map(([, step]) => step);
  const text = [
    'pm tracks this repository\'s work items as reviewable files with append-only history.',
    steps.length ? `Workflow: ${steps.join('; ')}.` : '',
    'Mutations take expectedRevision (a stale revision is refused, never merged) and idempotencyKey (a retry returns the first receipt).',
    'Resources: pm://context, pm://claims, pm://guidance (repository agent guidance), pm://items/{id}.',
  ].filter(Boolean).join(' ');
  return text.slice(0, PM_MCP_MAX_INSTRUCTIONS_LENGTH);
}

/** The tool deps of a server: actor resolution and consent around the tracker. */
export function pmTrackerToolDeps(options: Pick<PmTrackerMcpServerOptions, 'tracker' | 'trackerFor' | 'defaultActor' | 'consent'>): PmTrackerToolDeps {
  const { tracker } = options;
  return {
    tracker,
    trackerFor: options.trackerFor ?? (() => tracker),
    actorOf: (ctx) => resolvePmMcpActor(ctx, options.defaultActor),
    consent: options.consent ?? elicitationConsent,
  };
}

/** The core's server options for a tracker (throws PmMcpToolSelectionError on a bad profile or tool list). */
export function buildPmTrackerMcpServerOptions(options: PmTrackerMcpServerOptions): PmMcpServerOptions {
  const { tracker, trackerFor, fs, profile, tools, defaultActor, consent, instructions, ...core } = options;
  const { tools: names } = resolvePmMcpToolSelection(profile, tools);
  return {
    ...core,
    instructions: instructions ?? pmTrackerInstructions(names),
    // Built on first use: discovery does not need the catalogue (the names are checked above).
    tools: new PmMcpToolRegistry(() => createPmTrackerTools(pmTrackerToolDeps({ tracker, ...(trackerFor ? { trackerFor } : {}), defaultActor, consent }), names)),
    resources: createPmTrackerResources(tracker, fs, trackerFor),
    prompts: createPmTrackerPrompts(tracker, trackerFor),
    // The catalogue's schemas come from config.yaml (types, statuses, lease): read it before
    // anything but discover is served, so an opened-deferred tracker is ready for every tool.
    // A host's own preparation (its extensions') runs beside it.
    prepare: core.prepare ? async () => void (await Promise.all([tracker.ready(), core.prepare!()])) : () => tracker.ready(),
  };
}

/** The validated, frozen server description of a tracker MCP server. */
export function createPmTrackerMcpServer(options: PmTrackerMcpServerOptions): PmMcpServerDescriptor {
  return definePmMcpServer(buildPmTrackerMcpServerOptions(options));
}
