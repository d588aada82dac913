import type { CliCommand } from '../command.js';

/**
 * `pm mcp rotate-key`: a fresh key for sealing MRTR `requestState` (seed 004 "MRTR, tasks, and
 * cache behavior": HMAC-sealed continuation state). The replaced key keeps verifying what it
 * sealed for one state lifetime, so a rotation never breaks an interaction in flight; keys
 * retired longer ago are forgotten. Running servers read the key file again on their next use.
 */
export const mcpRotateKeyCommand: CliCommand = {
  name: 'mcp rotate-key',
  summary: "Rotate the key that seals MCP requestState (the old key verifies for one more state lifetime)",
  description:
    "pm's MCP servers seal the state of a multi round-trip request (an elicitation form for consent, say) with an HMAC key kept in .agents/pm/.runtime/request-state-keys.json (mode 0600, never committed). This makes a fresh key current. State sealed with the replaced key stays valid until it expires (at most one state lifetime, 10 minutes); running servers pick the new key up on their next request. Rotate after the runtime directory may have been copied or read by someone else. JSON: { current: { id, createdAt }, retired: [{ id, retiredAt, verifiesUntil }] }.",
  args: [],
  options: {},
  examples: ['pm mcp rotate-key', 'pm mcp rotate-key --json'],
  async run(_args, { services }) {
    const sealer = await services.requestStates();
    const current = await sealer.rotate();
    const retired = (await sealer.keys()).filter((key) => key.retiredAt !== undefined).map((key) => ({ id: key.id, retiredAt: new Date(key.retiredAt!).toISOString(), verifiesUntil: new Date(key.retiredAt! + sealer.lifetimeMs).toISOString() }));
    const human = [`Rotated the requestState key: ${current.id} seals from now on.`, ...retired.map((key) => `  ${key.id} (retired ${key.retiredAt}) still verifies until ${key.verifiesUntil}`)].join('\n');
    return { value: { current: { id: current.id, createdAt: new Date(current.createdAt).toISOString() }, retired }, human: `${human}\n` };
  },
};
