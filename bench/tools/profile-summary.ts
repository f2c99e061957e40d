/** `npx tsx bench/tools/profile-summary.ts <file.cpuprofile> [rows]`: the summary the bench prints, for a kept profile. */
import fs from 'node:fs';
import { summariseCpuProfile, type CpuProfile } from '../lib/cpuprofile';

const [file, rows] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/tools/profile-summary.ts <file.cpuprofile> [rows]');
  process.exit(2);
}
console.log(summariseCpuProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, rows ? Number(rows) : undefined));
