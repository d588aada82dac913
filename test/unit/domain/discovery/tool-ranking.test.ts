/**
 * Ranking is deterministic and explained: stems, stopwords, field weights, rarity, prefix
 * matches, and the order of ties.
 */
import { PM_TOOL_RANKING_WEIGHTS, PmToolRankingIndex, pmToolTerms, stemPmToolTerm } from '../../../../src/domain/discovery/index.js';
import type { McpToolDescriptor } from '../../../../src/domain/mcp/index.js';

const tool = (name: string, description: string, properties: Record<string, object> = {}, title?: string): McpToolDescriptor => ({
  name,
  description,
  ...(title ? { title } : {}),
  inputSchema: { type: 'object', properties },
});

describe('terms', () => {
  test('stems fold plural and verb endings the same way on both sides', () => {
    expect(['claim', 'claims', 'claimed', 'claiming'].map(stemPmToolTerm)).toEqual(['claim', 'claim', 'claim', 'claim']);
    expect(['close', 'closed', 'closing', 'closes'].map(stemPmToolTerm)).toEqual(['clos', 'clos', 'clos', 'clos']);
    expect(['dependency', 'dependencies'].map(stemPmToolTerm)).toEqual(['dependenci', 'dependenci']);
    expect(stemPmToolTerm('address')).toBe('address'); // a double s is not a plural
    expect(stemPmToolTerm('bug')).toBe('bug');
  });

  test('stopwords, camelCase and duplicates', () => {
    expect(pmToolTerms('I want to close the item with the expectedRevision and close it')).toEqual(['clos', 'expect', 'revision']);
    expect(pmToolTerms('the a an')).toEqual([]);
  });
});

describe('PmToolRankingIndex', () => {
  const tools = [
    tool('pm_claim', 'Claims an item before work.', { id: { type: 'string' } }, 'Claim item'),
    tool('pm_close', 'Closes an item with evidence. Releases the claim.', { evidence: { type: 'string', description: 'What shows it is done.' } }, 'Close item'),
    tool('pm_deps', 'Links between items.', { kind: { type: 'string', enum: ['blockedBy', 'blocks', 'related'] } }),
    tool('pm_blockers', 'Lists blockers.'),
  ];
  const index = new PmToolRankingIndex(tools.map((descriptor) => ({ descriptor, keywords: descriptor.name === 'pm_close' ? ['finish', 'done'] : [] })));

  test('the name outweighs a mention in another description, and the explanation names the field', () => {
    const ranked = index.rank('claim');
    expect(ranked.map((r) => r.name)).toEqual(['pm_claim', 'pm_close']);
    expect(ranked[0]!.matched).toEqual({ claim: 'name' });
    expect(ranked[1]!.matched).toEqual({ claim: 'description' });
    expect(ranked[0]!.score / ranked[1]!.score).toBeCloseTo(PM_TOOL_RANKING_WEIGHTS.name / PM_TOOL_RANKING_WEIGHTS.description, 1);
  });

  test('keywords, enum values and arguments are searched', () => {
    expect(index.rank('finish it')[0]).toMatchObject({ name: 'pm_close', matched: { finish: 'keywords' } });
    expect(index.rank('related')[0]).toMatchObject({ name: 'pm_deps', matched: { relat: 'arguments' } });
    expect(index.rank('evidence')[0]).toMatchObject({ name: 'pm_close', matched: { evidenc: 'description' } });
  });

  test('a term that only starts a word counts half; short terms never match by prefix', () => {
    const ranked = index.rank('block');
    const blockers = ranked.find((r) => r.name === 'pm_blockers')!;
    expect(blockers.matched).toEqual({ block: 'name' });
    expect(blockers.score).toBeCloseTo((PM_TOOL_RANKING_WEIGHTS.name / 2) * Math.log(1 + 4 / 1), 2);
    expect(index.rank('clo')).toEqual([]);
  });

  test('nothing matches: empty; the same query always gives the same ranking; ties keep catalogue order', () => {
    expect(index.rank('zebra unicorn')).toEqual([]);
    expect(index.rank('item claim close')).toEqual(index.rank('item claim close'));
    const twins = new PmToolRankingIndex([{ descriptor: tool('b_tool', 'Same words.') }, { descriptor: tool('a_tool', 'Same words.') }]);
    expect(twins.rank('same words').map((r) => r.name)).toEqual(['b_tool', 'a_tool']);
  });
});
