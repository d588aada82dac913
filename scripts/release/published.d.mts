export interface PublishedSpec {
  readonly spec: string;
  readonly name: string;
  readonly version?: string;
  readonly tag?: string;
}
export interface RegistryArtifact {
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
  readonly tarball: string;
}
export interface PackedArtifact {
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
}
export declare function parsePublishedSpec(spec: string | undefined, packageName: string): PublishedSpec;
export declare function readRegistryView(stdout: string, spec: string): RegistryArtifact;
export declare function publishedDifferences(registry: RegistryArtifact, packed: PackedArtifact): string[];
