export declare const MAX_DIFFS: number;
export interface JsonDifference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}
export interface ConsumerRecord {
  readonly label: string;
  readonly discover: unknown;
  readonly initialize?: Readonly<Record<string, unknown>>;
}
export interface ComparisonRow {
  readonly label: string;
  readonly ok: boolean;
  readonly diffs: JsonDifference[];
  readonly omitted: number;
}
export interface Comparison {
  readonly ok: boolean;
  readonly reference: string;
  readonly rows: ComparisonRow[];
}
export declare function jsonDiff(expected: unknown, actual: unknown, path?: string, limit?: number): JsonDifference[];
export declare function compareRecords(records: readonly ConsumerRecord[], revisions: readonly string[]): Comparison;
export declare function formatComparison(comparison: Comparison): string;
