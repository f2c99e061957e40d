#!/usr/bin/env node
'use strict';
// In a checkout (the TypeScript sources are here) the CLI runs them through tsx, so it is never an
// older `npm run build` left in dist/; the container image ships only the build, and runs that.
const path = require('node:path');
const fs = require('node:fs');

const source = path.join(__dirname, '..', 'src', 'cli', 'main.ts');
if (fs.existsSync(source)) {
  require('tsx/cjs');
  require(source);
} else {
  require(path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js'));
}
