import { defineMcpMethodSpec } from '../mcp/method-spec.js';

/**
 * The Skills extension's methods (SEP-2640 at the pinned revision: "Enumeration", "Directory
 * Listing"). Both eras: SEP-2640 declares the extension in the `initialize` result on
 * pre-2026-07-28 connections, so initialize-era clients may call them too. They only read.
 */

/** `skills/list`: one page of skill entries. */
export const PM_MCP_SKILLS_LIST_METHOD = defineMcpMethodSpec({ method: 'skills/list', eras: ['modern', 'legacy'] });

/** `skills/get`: one skill entry by its SKILL.md URI. */
export const PM_MCP_SKILLS_GET_METHOD = defineMcpMethodSpec({ method: 'skills/get', eras: ['modern', 'legacy'] });

/** `resources/directory/read`: one skill directory's direct children. */
export const PM_MCP_DIRECTORY_READ_METHOD = defineMcpMethodSpec({ method: 'resources/directory/read', eras: ['modern', 'legacy'] });
