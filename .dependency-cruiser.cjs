/**
 * `npm run check:structure` (part of `npm test`): no import cycles in src/, type-only imports included (a type
 * import still ties two modules' meanings together), and nothing in src/ imports workflow internals except the
 * workflows themselves (the wire contract lives in src/contract/).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or around a circle (type imports count).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-workflow-internals',
      severity: 'error',
      comment: 'Outside src/workflows/, use the wire contract (src/contract/), not the workflow modules.',
      from: { path: '^src/', pathNot: ['^src/workflows/', '^src/workflow-bundle\\.ts$', '^src/dev/determinism-check'] },
      to: { path: '^src/workflows/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
