#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { checkOutputPath } from './runner/check-output-path';
import { cliMain } from './runner/cli-main';

process.exitCode = cliMain(process.argv.slice(2), {
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  checkOutput: checkOutputPath,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
