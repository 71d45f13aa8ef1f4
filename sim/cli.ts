#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { checkOutputPath } from './runner/check-output-path';
import { cliMain } from './runner/cli-main';
import { limitRegexpBacktracking } from '../src/runtime/regexp-backtracking';
import { readBoundedText } from './runner/read-bounded-text';

// A scenario's constraint patterns finish in linear time, as in npm start (src/runtime/regexp-backtracking.ts).
limitRegexpBacktracking();
process.exitCode = cliMain(process.argv.slice(2), {
  readFile: readBoundedText,
  writeFile: (path, text) => writeFileSync(path, text),
  checkOutput: checkOutputPath,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  wallMs: () => performance.now(),
});
