// Mocha runs the TypeScript tests through tsx; global.ts starts one real PostgreSQL for the suite.
module.exports = {
  require: ['tsx/cjs', 'test/support/global.ts'],
  spec: ['test/**/*.test.ts'],
  timeout: 120000,
  slow: 5000,
  exit: true,
};
