// `npm run gen:validators`: write ajv's standalone validation code of every schema pacer validates
// (src/validation/validator-modules.ts lists them) into src/generated/, so that pacer does not
// compile them at every start. `npm run gen:validators -- --check` writes nothing and exits 1 when
// a committed file is not what would be generated (test/unit/validation/generated-validators.test.ts
// checks the same). Run through tsx: it imports the schemas' TypeScript modules, none of which
// loads a generated file, so it also runs when src/generated is missing or broken (after a merge
// that conflicts there: generate again rather than merging the files).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validatorModuleTexts } from '../src/validation/validator-modules';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length > 0) {
  process.stderr.write(`npm run gen:validators: unknown argument ${unknown.join(' ')} (only --check)\n`);
  process.exit(2);
}
const check = args.includes('--check');
const root = join(__dirname, '..');

function committed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

let stale = 0;
for (const { file, text } of validatorModuleTexts()) {
  const path = join(root, file);
  if (committed(path) === text) continue;
  stale += 1;
  if (check) {
    process.stderr.write(`${file} is stale: run npm run gen:validators\n`);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    process.stdout.write(`wrote ${file}\n`);
  }
}
if (check && stale > 0) process.exit(1);
if (stale === 0) process.stdout.write('src/generated is up to date\n');
