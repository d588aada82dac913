// Integration tests run the real binaries, which load dist/: build it once per run.
import { build } from '../../scripts/build.mjs';
export default async function globalSetup() {
  await build();
}
