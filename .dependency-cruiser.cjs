// Import cycles, type-only imports included: dependency-cruiser reads the TypeScript before
// compilation, where `import type` edges still exist (ESLint's import-x/no-cycle skips them).
// `npm run lint` runs it over every folder tsconfig.json includes.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make modules impossible to load or understand in isolation; type-only edges count too.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
