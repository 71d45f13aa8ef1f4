import { readFileSync, writeFileSync } from 'node:fs';
import { checkOutputPath } from '../../sim/runner/check-output-path';
import { cliMain } from '../../sim/runner/cli-main';

/** Runs the sim CLI in-process with real files (the wrapper in sim/cli.ts only wires the process). */
export function runSimCli(args: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = cliMain(args, {
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: (p, text) => writeFileSync(p, text),
    checkOutput: checkOutputPath,
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
  });
  return { code, out, err };
}
