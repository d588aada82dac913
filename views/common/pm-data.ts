/**
 * The structured results the views render, as the pm tools advertise them in their
 * outputSchema, with light guards: a host may hand a view anything, and a result that does not
 * have the expected shape falls back to the tool's text instead of breaking the view.
 */

export interface Summary {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: string;
  readonly priority: number;
  readonly tags?: readonly string[];
  readonly parent?: string;
  readonly assignee?: string;
  readonly claimHolder?: string;
  /** The claim's lease ran out: pm next offers the item to others. */
  readonly claimExpired?: boolean;
  readonly blockedBy?: readonly string[];
  readonly updated?: string;
  readonly revision?: number;
}

/** A whole item: the summary's fields (less the claim holder, given as `claim`) and the rest of the file. */
export interface Item extends Omit<Summary, 'claimHolder' | 'claimExpired'> {
  readonly claim?: { readonly holder: string; readonly claimedAt: string; readonly expiresAt: string };
  readonly related?: readonly string[];
  readonly acceptance?: readonly { readonly text: string; readonly done?: boolean }[];
  readonly files?: readonly string[];
  readonly tests?: readonly string[];
  readonly custom?: Readonly<Record<string, string | number | boolean>>;
  readonly closure?: { readonly at: string; readonly by: string; readonly evidence: string };
  readonly comments?: readonly { readonly id: string; readonly author: string; readonly at: string; readonly text: string }[];
  readonly created?: string;
  readonly body?: string;
}

export interface ItemResult {
  readonly item: Item;
  readonly commentsTotal: number;
  /** The claim's lease ran out (pm_get says so; absent otherwise). */
  readonly claimExpired?: boolean;
}

/** What pm left out of a result to keep it within its token budget (pm's bounded reads). */
export interface BudgetOmission {
  readonly reason: string;
  readonly rows: number;
  readonly tokenBudget: number;
  readonly recovery: string;
}

export interface ListResult {
  readonly items: readonly Summary[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly omitted?: BudgetOmission;
}

export interface ContextResult {
  readonly idPrefix: string;
  readonly total: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byType: Readonly<Record<string, number>>;
  readonly next: Summary | null;
  readonly nextRationale: string;
  readonly claims: readonly { readonly id: string; readonly title: string; readonly holder: string; readonly expiresAt: string }[];
  /** Claims whose lease ran out (present only when there are some): offered by pm_next. */
  readonly expiredClaims?: readonly { readonly id: string; readonly title: string; readonly holder: string; readonly expiresAt: string }[];
  readonly recent: readonly Summary[];
  readonly unreadable: readonly { readonly id: string; readonly message: string }[];
  /** Present when pm cut the claims (or unreadable files) to its list bound. */
  readonly claimsTotal?: number;
  readonly unreadableTotal?: number;
}

export interface GraphNode {
  readonly id: string;
  readonly title?: string;
  readonly type?: string;
  readonly status?: string;
  readonly priority?: number;
  readonly missing?: boolean;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'parent' | 'blocks' | 'related';
}

export interface GraphResult {
  readonly focus: string | null;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly truncated: boolean;
  readonly total?: number;
  readonly omitted?: BudgetOmission;
}

export interface HistoryEntry {
  readonly seq: number;
  readonly receiptId: string;
  readonly op: string;
  readonly actor: string;
  readonly at: string;
  readonly revisionBefore: number | null;
  readonly revisionAfter: number | null;
  readonly idempotencyKey?: string;
  readonly patch?: readonly { readonly op: string; readonly path: string; readonly value?: unknown }[];
}

export interface HistoryResult {
  readonly id: string;
  readonly entries: readonly HistoryEntry[];
  readonly total: number;
  /** Older entries follow with this cursor. */
  readonly nextCursor?: string;
  readonly omitted?: BudgetOmission;
}

/**
 * The value of a tool result, whichever form it comes in: pm's structured data as it is, or, for
 * a host that negotiated progressive tool discovery, the canonical `structuredContent.result`
 * that wraps it (an object whose only member is `result`; none of pm's view results has that
 * shape).
 */
export function resultValue(structured: unknown): unknown {
  return isCanonical(structured) ? structured.result : structured;
}

/** True for a canonical `{result: …}` wrapper. */
export function isCanonical(structured: unknown): structured is { readonly result: unknown } {
  return isObject(structured) && Object.keys(structured).length === 1 && isObject(structured.result);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const arrayOf = <T>(v: unknown, guard: (x: unknown) => x is T): v is readonly T[] => Array.isArray(v) && v.every(guard);

const isSummary = (v: unknown): v is Summary => isObject(v) && isString(v.id) && isString(v.title) && isString(v.status) && isString(v.type) && isNumber(v.priority);
const isItem = isSummary as (v: unknown) => v is Item;
const isNode = (v: unknown): v is GraphNode => isObject(v) && isString(v.id);
const isEdge = (v: unknown): v is GraphEdge => isObject(v) && isString(v.from) && isString(v.to) && (v.kind === 'parent' || v.kind === 'blocks' || v.kind === 'related');
const isEntry = (v: unknown): v is HistoryEntry => isObject(v) && isNumber(v.seq) && isString(v.op) && isString(v.at) && isString(v.actor) && isString(v.receiptId);
const isCounts = (v: unknown): v is Record<string, number> => isObject(v) && Object.values(v).every(isNumber);

export function asItemResult(v: unknown): ItemResult | undefined {
  return isObject(v) && isItem(v.item) && isNumber(v.commentsTotal) ? (v as unknown as ItemResult) : undefined;
}

export function asListResult(v: unknown): ListResult | undefined {
  return isObject(v) && arrayOf(v.items, isSummary) && isNumber(v.total) ? (v as unknown as ListResult) : undefined;
}

export function asContextResult(v: unknown): ContextResult | undefined {
  if (!isObject(v) || !isNumber(v.total) || !isCounts(v.byStatus) || !isCounts(v.byType)) return undefined;
  if (!(v.next === null || isSummary(v.next)) || !arrayOf(v.recent, isSummary) || !Array.isArray(v.claims) || !Array.isArray(v.unreadable)) return undefined;
  return v as unknown as ContextResult;
}

export function asGraphResult(v: unknown): GraphResult | undefined {
  return isObject(v) && arrayOf(v.nodes, isNode) && arrayOf(v.edges, isEdge) ? (v as unknown as GraphResult) : undefined;
}

export function asHistoryResult(v: unknown): HistoryResult | undefined {
  return isObject(v) && isString(v.id) && arrayOf(v.entries, isEntry) && isNumber(v.total) ? (v as unknown as HistoryResult) : undefined;
}
