// Lint, including the layer rules of docs/ARCHITECTURE.md, enforced mechanically:
// domain imports only domain and ports; ports import nothing concrete; adapters never import
// composition; only composition imports adapters; the SDK entry stays free of node I/O.
import tseslint from 'typescript-eslint';

// Bare module names are matched exactly (a relative './http/x.js' is not the 'http' module);
// 'node:*' and sub-paths are matched as patterns.
const nodeIoNames = ['fs', 'fs/promises', 'path', 'os', 'child_process', 'http', 'https', 'http2', 'net', 'crypto', 'stream', 'readline', 'worker_threads'];
const nodeIo = ['node:*'];
const frameworkNames = ['inversify', 'express', 'jose', 'reflect-metadata', 'pg'];
const frameworks = ['express/*', 'jose/*', '@inversifyjs/*', 'pg/*'];
const pattern = (group, message) => ({ group, message });
const names = (list, message) => list.map((name) => ({ name, message }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '.tools/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/sdk/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...names(nodeIoNames, 'The SDK entry pulls in no node I/O (hosts provide ports).'), ...names(frameworkNames, 'The SDK entry pulls in no framework or container code.')], patterns: [
        pattern(nodeIo, 'The SDK entry pulls in no node I/O (hosts provide ports).'),
        pattern(frameworks, 'The SDK entry pulls in no framework or container code.'),
        pattern(['**/adapters/node/**', '**/adapters/cli/**', '**/adapters/http/**', '**/composition/**'], 'The SDK re-exports domain contracts and the pure in-memory adapters only.'),
      ] }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...names(nodeIoNames, 'Domain code reaches the world only through a port (src/ports).'), ...names(frameworkNames, 'Domain code never imports container or framework code.')], patterns: [
        pattern(nodeIo, 'Domain code reaches the world only through a port (src/ports).'),
        pattern(frameworks, 'Domain code never imports container or framework code.'),
        pattern(['**/adapters/**', '**/composition/**'], 'Domain imports only domain and ports.'),
      ] }],
    },
  },
  {
    files: ['src/ports/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...names(nodeIoNames, 'Ports import nothing concrete.'), ...names(frameworkNames, 'Ports import nothing concrete.')], patterns: [
        pattern(nodeIo, 'Ports import nothing concrete.'),
        pattern(frameworks, 'Ports import nothing concrete.'),
        pattern(['**/adapters/**', '**/composition/**'], 'Ports import nothing concrete.'),
      ] }],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: names(['inversify'], 'Container code lives in src/composition only.'), patterns: [
        pattern(['**/composition/**'], 'Adapters never import composition.'),
        pattern(['@inversifyjs/*'], 'Container code lives in src/composition only.'),
      ] }],
    },
  },
  {
    files: ['src/adapters/memory/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: names(nodeIoNames, 'In-memory adapters touch no node I/O.'), patterns: [
        pattern(nodeIo, 'In-memory adapters touch no node I/O.'),
        pattern(['**/composition/**', '**/adapters/node/**'], 'In-memory adapters stand alone.'),
      ] }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The bins and the bench's floor are CommonJS on purpose (a CommonJS main starts faster).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
