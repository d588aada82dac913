/**
 * The Node.js binaries the test run provisions into .tools/ (scripts/provision.mjs, from jest's
 * global setup): every supported Node besides the one running the suite, so a test can run pm
 * under another Node than the one that installed it.
 */
export function toolNode(major: 22 | 24): string {
  const path = process.env[`PM_TEST_NODE${major}`];
  if (!path) throw new Error(`PM_TEST_NODE${major} is not set: run the tests with npm test (its global setup provisions Node ${major} into .tools/)`);
  return path;
}
