/** `npx tsx bench/tools/profile-summary.ts <file.cpuprofile> [rows] [skip-first-ms]`: the summary the bench prints, for a kept profile. */
import fs from 'node:fs';
import { summariseCpuProfile, type CpuProfile } from '../lib/cpuprofile';

const [file, rows, skip] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/tools/profile-summary.ts <file.cpuprofile> [rows] [skip-first-ms]');
  process.exit(2);
}
console.log(summariseCpuProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, rows ? Number(rows) : undefined, skip ? Number(skip) : 0));
