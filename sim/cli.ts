#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { cliMain } from './runner/cli-main';

process.exitCode = cliMain(process.argv.slice(2), {
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
