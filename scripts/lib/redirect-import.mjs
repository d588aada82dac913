// The one shape of pm's "stand-in" esbuild plugins (scripts/build.mjs, scripts/build-views.mjs):
// an import the bundles should not carry is redirected to a small module of ours, and a bundle
// in which that import never occurred fails, because then the package has moved it and the
// stand-in silently stopped applying.

/** An esbuild error result naming the plugin. */
export const pluginError = (plugin, text) => ({ errors: [{ text: `${plugin}: ${text}` }] });

/**
 * An esbuild plugin named `name` that resolves imports matching `filter` (and `applies(args)`,
 * when given) to `contents`, resolved from `resolveDir(args)` when given (for stand-ins that
 * import their neighbours), and fails the bundle with `missing` when it redirected nothing
 * (unless `missing` is undefined: a stand-in that applies where the import occurs, if it does).
 */
export function redirectImport({ name, filter, applies, resolveDir, contents, missing }) {
  return {
    name,
    setup(build) {
      let redirected = 0;
      build.onStart(() => {
        redirected = 0;
      });
      build.onResolve({ filter }, (args) => {
        if (applies && !applies(args)) return undefined;
        redirected++;
        return { path: resolveDir ? resolveDir(args) : name, namespace: name };
      });
      build.onLoad({ filter: /.*/, namespace: name }, (args) => ({ contents, ...(resolveDir ? { resolveDir: args.path } : {}), loader: 'js' }));
      build.onEnd(() => (redirected > 0 || missing === undefined ? undefined : pluginError(name, missing)));
    },
  };
}
