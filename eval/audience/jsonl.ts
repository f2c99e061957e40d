import fs from 'node:fs';
import path from 'node:path';

/** The rows of a JSON Lines file (blank lines skipped); a line that is not JSON fails naming it. */
export function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch {
        throw new Error(`${path.basename(file)} line ${i + 1} is not JSON`);
      }
    });
}
