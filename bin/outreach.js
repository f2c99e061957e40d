#!/usr/bin/env node
'use strict';
// The CLI runs from the compiled build when there is one (container image), otherwise from the
// TypeScript sources through tsx (a checkout after `npm install`).
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (fs.existsSync(compiled)) {
  require(compiled);
} else {
  require('tsx/cjs');
  require(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
}
