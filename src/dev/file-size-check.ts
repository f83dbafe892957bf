/**
 * Fails when a file under src/ is longer than 300 lines: a file that long holds more than one idea, and its name can
 * no longer say what it is. `npm run check:structure` runs it with the import-cycle check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const MAX_LINES = 300;

export function oversizedFiles(root: string): { file: string; lines: number }[] {
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ file: path.relative(process.cwd(), file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const over = oversizedFiles('src');
  for (const f of over) console.error(`${f.file}: ${f.lines} lines (at most ${MAX_LINES})`);
  if (over.length) process.exit(1);
  console.log(`no file in src/ is over ${MAX_LINES} lines`);
}
