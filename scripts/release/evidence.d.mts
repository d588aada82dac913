export declare const EVIDENCE_FORMAT: string;
export declare const EVIDENCE_DIR: string;
export interface EvidenceStore {
  mkdir(dir: string): void;
  exists(path: string): boolean;
  write(path: string, text: string): void;
}
export interface ReleaseEvidence {
  readonly format: string;
  readonly createdAt: string;
  readonly ok: boolean;
  readonly source: { readonly commit: string; readonly tag?: string; readonly dirty: boolean };
  readonly package: { readonly name: string; readonly version: string };
  readonly tarball: { readonly filename: string; readonly sha512: string; readonly size: number };
  readonly consumers: readonly { readonly name: string; readonly version: string; readonly role: string }[];
  readonly smoke: {
    readonly ok: boolean;
    readonly passed: number;
    readonly failed: number;
    readonly seconds: number;
    readonly checks: readonly { readonly name: string; readonly ok: boolean }[];
    readonly agreement: null | {
      readonly ok: boolean;
      readonly reference: string;
      readonly consumers: readonly string[];
      readonly differing: readonly { readonly label: string; readonly differences: number; readonly first: readonly unknown[] }[];
    };
  };
  readonly conformance: {
    readonly ok: boolean;
    readonly suite: string;
    readonly requirementSets: readonly string[];
    readonly required: { readonly passed: number; readonly total: number };
    readonly requiredFailures: readonly unknown[];
  };
  readonly clients: { readonly ok: boolean; readonly tests: string; readonly passed: number; readonly failed: number };
}
export declare function buildEvidence(input: Record<string, unknown>): ReleaseEvidence;
export declare function evidenceFileName(date: Date): string;
export declare function writeEvidence(record: ReleaseEvidence, dir: string, store: EvidenceStore): string;
