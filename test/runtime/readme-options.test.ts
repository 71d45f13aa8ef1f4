import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig, parseConfig, usage, type ClusterKind, type PacerConfig } from '../../src/runtime/config';
import { unusedFlagWarnings } from '../../src/runtime/unused-flags';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * The README's `## Options` table is a claim about `src/runtime/config.ts`: every flag it names
 * exists, every flag the parser accepts is in it, each literal default it gives is the parser's
 * default (giving the documented default changes nothing), the descriptive defaults say what the
 * config holds, and the bounds it states are the parser's bounds.
 */

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

interface Row {
  readonly flags: readonly string[];
  readonly defaults: string;
  readonly text: string;
  readonly line: number;
}

/** The cells of one table row: split at each `|` outside a code span (`text|json` stays whole). */
function tableCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (const ch of line.trim().slice(1, -1)) {
    if (ch === '`') inCode = !inCode;
    if (ch === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell.trim());
  return cells;
}

/** The rows of the table under `## Options`, each with its flags (first column) and default cell. */
function optionRows(): Row[] {
  const lines = README.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Options');
  const rows: Row[] = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    const line = lines[i];
    if (!line.startsWith('| `--')) continue;
    const cells = tableCells(line);
    const flags = [...cells[0].matchAll(/`(--[a-z_]+)`/g)].map((m) => m[1]);
    rows.push({ flags, defaults: cells[1].trim(), text: line, line: i + 1 });
  }
  return rows;
}

/** The flags `npm start -- --help` lists (generated from the parser's own option table). */
function parserFlags(): string[] {
  return [...usage().matchAll(/^ {2}(--[a-z_]+)/gm)].map((m) => m[1]).filter((f) => f !== '--help');
}

const CWD = REPO_ROOT;
type Parsed = ReturnType<typeof parseConfig>;

function configOf(parsed: Parsed, what: string): PacerConfig {
  if (parsed === 'help' || 'error' in parsed) throw new Error(`${what}: expected a config, got ${JSON.stringify(parsed)}`);
  return parsed;
}

/**
 * Defaults the table describes in words rather than as a value to pass: what the config holds
 * when the flag is not given.
 */
const DESCRIBED: Readonly<Record<string, { readonly cell: string; readonly check: (c: PacerConfig) => boolean }>> = {
  '--local_agent_ports': { cell: '`31000` upward, `1000` per agent', check: (c) => c.localAgentPorts === undefined },
  '--local_agent_attributes': { cell: 'none', check: (c) => c.localAgentAttributes === undefined },
  '--local_agent_domains': { cell: 'none', check: (c) => c.localAgentDomains === undefined },
  '--record': { cell: 'off', check: (c) => c.recordDir === undefined },
  '--disable_http': { cell: 'off', check: (c) => !c.disableHttp },
  '--disable_maintenance_mode': { cell: 'off', check: (c) => c.maintenanceMode },
  '--disable_http_compression': { cell: 'off', check: (c) => c.httpCompression },
  '--log_format': { cell: 'by terminal', check: (c) => c.logFormat === undefined },
  '--mesos_user': { cell: 'the user running pacer', check: (c) => c.mesosUser === undefined },
  '--hostname': { cell: '`--address`', check: (c) => c.hostname === undefined },
  '--webui_url': { cell: 'derived', check: (c) => c.webuiUrl === undefined },
};

t.test('every flag of the README options table is a flag of the parser, and every parser flag is in the table', async (t) => {
  const rows = optionRows();
  t.ok(rows.length >= 30, `the table was found (${rows.length} rows)`);
  const tableFlags = new Set(rows.flatMap((r) => r.flags));
  const mentioned = new Set(rows.flatMap((r) => [...r.text.matchAll(/`(--[a-z_]+)/g)].map((m) => m[1])));
  const parser = parserFlags();
  t.ok(parser.length >= 40, `usage() lists the parser's flags (${parser.length})`);
  for (const flag of tableFlags) t.ok(parser.includes(flag), `${flag} (README options table) is a flag of src/runtime/config.ts`);
  // An alias may be named in its flag's row (`--logging_level` in `--log_level`'s) rather than a row of its own.
  for (const flag of parser) t.ok(tableFlags.has(flag) || mentioned.has(flag), `${flag} (src/runtime/config.ts) is in the README options table`);
});

t.test('every default the README options table gives is the parser\'s default', async (t) => {
  const defaults = configOf(parseConfig([], {}, CWD), 'no flags');
  t.same(defaults, defaultConfig(CWD));
  for (const row of optionRows()) {
    const described = row.flags.map((f) => DESCRIBED[f]).filter((d) => d !== undefined);
    if (described.length > 0 && row.flags.length === 1) {
      const d = described[0];
      t.equal(row.defaults, d.cell, `${row.flags[0]} (README.md:${row.line}): the default cell reads as this test knows it`);
      t.ok(d.check(defaults), `${row.flags[0]} (README.md:${row.line}): "${d.cell}" is what the config holds without the flag`);
      continue;
    }
    const cells = row.defaults === '' ? [] : row.defaults.split(',').map((c) => c.trim());
    t.ok(cells.length <= row.flags.length, `README.md:${row.line}: no more defaults than flags`);
    cells.forEach((cell, i) => {
      const flag = row.flags[i];
      if (cell === '') return; // no default: unset, or described in the row's text
      const d = DESCRIBED[flag];
      if (d !== undefined) {
        t.equal(cell, d.cell, `${flag} (README.md:${row.line}): the default cell reads as this test knows it`);
        t.ok(d.check(defaults), `${flag} (README.md:${row.line}): "${cell}" is what the config holds without the flag`);
        return;
      }
      const literal = /^`([^`]*)`$/.exec(cell);
      if (literal === null) {
        t.fail(`${flag} (README.md:${row.line}): default "${cell}" is neither a value in backticks nor a described default this test knows`);
        return;
      }
      const given = parseConfig([flag, literal[1]], {}, CWD);
      t.same(given, defaults, `${flag} ${literal[1]} (README.md:${row.line}) is the default: giving it changes nothing`);
    });
  }
});

/** Bounds the README (options table) and docs/limits.md state for flags: the values just inside and just outside. */
const BOUNDS: ReadonlyArray<{ readonly flag: string; readonly ok: readonly string[]; readonly refused: readonly string[]; readonly where: string }> = [
  { flag: '--launches_per_input', ok: ['1', '100000'], refused: ['0', '100001'], where: 'README options table, docs/limits.md: 1–100,000' },
  { flag: '--launches_per_offer_batch', ok: ['1', '100000'], refused: ['0', '100001'], where: 'README options table, docs/limits.md: 1–100,000' },
  { flag: '--instances_per_input', ok: ['1', '100000'], refused: ['0', '100001'], where: 'README options table, docs/limits.md: 1–100,000' },
  { flag: '--unhealthy_kill_floor', ok: ['0', '0.5', '1'], refused: ['-0.1', '1.1', 'half'], where: 'README options table: a share 0–1' },
  { flag: '--framework_name', ok: ['m', 'x'.repeat(256)], refused: ['', 'x'.repeat(257), 'a\tb'], where: 'README, docs/limits.md: at most 256 printable characters' },
  { flag: '--mesos_user', ok: ['u', 'x'.repeat(256)], refused: ['', 'x'.repeat(257), 'a b', 'a/b', 'a:b'], where: 'docs/limits.md: 1 to 256 characters, no blanks, / or :' },
  { flag: '--failover_timeout', ok: ['0', '315360000'], refused: ['-1', '315360001'], where: 'README, docs/limits.md: 0 to ten years (315,360,000 s)' },
  { flag: '--webui_url', ok: ['http://h', `https://${'h'.repeat(2040)}`], refused: ['', 'h:8080', 'ftp://h', `http://${'h'.repeat(2042)}`], where: 'README, docs/limits.md: an http(s) URL of at most 2,048 characters' },
  { flag: '--local_agent_ports', ok: ['1-1000', '65000-65535'], refused: ['0-100', '65000-65536', '2000-1000', '31000'], where: 'README options table: BEGIN-END within 1–65535' },
  { flag: '--draining_seconds', ok: ['0', '315360000'], refused: ['-1', '315360001', '1.5'], where: 'README, docs/limits.md: 0 to ten years (315,360,000 s)' },
  { flag: '--zk_session_timeout', ok: ['1000', '600000'], refused: ['999', '600001'], where: 'docs/limits.md: 1,000 to 600,000 ms' },
  { flag: '--store_min_free', ok: ['0', '1048576'], refused: ['-1', '1048577', '1.5'], where: 'README options table, docs/limits.md: 0 to 1,048,576 MiB' },
  { flag: '--zk_timeout', ok: ['100', '600000'], refused: ['99', '600001'], where: 'docs/limits.md: 100 to 600,000 ms' },
  { flag: '--http_auth_failures', ok: ['0', '1000000'], refused: ['-1', '1000001', '1.5'], where: 'README options table, docs/limits.md: 0 to 1,000,000' },
  { flag: '--http_auth_failure_window', ok: ['1000', '3600000'], refused: ['999', '3600001'], where: 'README options table, docs/limits.md: 1,000 to 3,600,000 ms' },
  { flag: '--http_auth_scrypt_runs', ok: ['1', '64'], refused: ['0', '65'], where: 'README options table, docs/limits.md: 1 to 64' },
  { flag: '--https_port', ok: ['0', '8444'], refused: ['65536'], where: 'README options table: 0 picks a free port' },
  { flag: '--speed', ok: ['0.5', '50'], refused: ['0', '-1', 'fast'], where: 'docs/limits.md: any number above 0' },
];

t.test('the bounds the documents state for flags are the parser\'s', async (t) => {
  for (const b of BOUNDS) {
    const shown = (v: string): string => (v.length > 20 ? `<${v.length} characters>` : JSON.stringify(v));
    for (const v of b.ok) {
      const parsed = parseConfig([b.flag, v], {}, CWD);
      t.ok(parsed !== 'help' && !('error' in parsed), `${b.flag} ${shown(v)} accepted (${b.where})`);
    }
    for (const v of b.refused) {
      const parsed = parseConfig([b.flag, v], {}, CWD);
      t.ok(parsed !== 'help' && 'error' in parsed, `${b.flag} ${shown(v)} refused (${b.where})`);
    }
  }
  // The example docs/limits.md gives of a refusal at start.
  t.same(parseConfig(['--launches_per_input', '0'], {}, CWD), { error: '--launches_per_input 0: expected an integer from 1 to 100000' });
});

t.test('every flag has a PACER_* environment variable, and flags win (README "Options")', async (t) => {
  for (const line of usage().split('\n').filter((l) => /^ {2}--[a-z_]+ /.test(l) && !l.startsWith('  --help'))) {
    const flag = /^ {2}(--[a-z_]+)/.exec(line)?.[1] ?? '';
    t.match(line, `[PACER_${flag.slice(2).toUpperCase()}]`, `${flag} names PACER_${flag.slice(2).toUpperCase()} in --help`);
  }
  const both = configOf(parseConfig(['--port', '9001'], { PACER_PORT: '9002' }, CWD), 'flag and variable');
  t.equal(both.port, 9001, 'the flag wins over the variable');
  t.equal(configOf(parseConfig([], { PACER_PORT: '9002' }, CWD), 'variable').port, 9002, 'the variable alone is read');
});

/** The `## Flags` table of docs/limits.md: each row's flags and its range cell. */
function limitsFlagRows(): { readonly flags: readonly string[]; readonly range: string; readonly line: number }[] {
  const lines = readFileSync(join(REPO_ROOT, 'docs', 'limits.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Flags');
  const rows: { flags: string[]; range: string; line: number }[] = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (!lines[i].startsWith('| `--')) continue;
    const cells = tableCells(lines[i]);
    rows.push({ flags: [...cells[0].matchAll(/`(--[a-z_]+)`/g)].map((m) => m[1]), range: cells[1], line: i + 1 });
  }
  return rows;
}

/** Flags whose bound can only be tried together with another flag (the service port range must not be reversed). */
const WITH: Readonly<Record<string, readonly string[]>> = {
  '--local_port_min': ['--local_port_max', '65535'],
  '--local_port_max': ['--local_port_min', '1'],
};

t.test('docs/limits.md "Flags": every numeric flag of the parser is listed, and each range is the parser\'s', async (t) => {
  const rows = limitsFlagRows();
  t.ok(rows.length >= 15, `the table was found (${rows.length} rows)`);
  const listed = new Set(rows.flatMap((r) => r.flags));
  // A flag is numeric when the parser refuses a word for it saying it expects a number.
  const numeric = parserFlags().filter((flag) => {
    const parsed = parseConfig([flag, 'word'], {}, CWD);
    return parsed !== 'help' && 'error' in parsed && /expected (an integer|a number|a positive number)/.test(parsed.error);
  });
  t.ok(numeric.length >= 20, `the parser's numeric flags were found (${numeric.length})`);
  for (const flag of numeric) t.ok(listed.has(flag), `${flag} takes a number: its range is in docs/limits.md "Flags"`);
  for (const row of rows) {
    const m = /^([\d,]+) – ([\d,]+)( ms| s| bytes| inputs|\b)/.exec(row.range);
    if (m === null || row.range.includes('characters')) continue; // BEGIN-END, names and --speed: the BOUNDS above
    const [low, high] = [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))];
    for (const flag of row.flags) {
      const extra = WITH[flag] ?? [];
      const at = (v: number): Parsed => parseConfig([flag, String(v), ...extra], {}, CWD);
      const accepted = (p: Parsed): boolean => p !== 'help' && !('error' in p);
      t.ok(accepted(at(low)), `${flag} ${low} accepted (docs/limits.md:${row.line})`);
      t.ok(accepted(at(high)), `${flag} ${high} accepted (docs/limits.md:${row.line})`);
      t.notOk(accepted(at(high + 1)), `${flag} ${high + 1} refused (docs/limits.md:${row.line})`);
      t.notOk(accepted(at(low - 1)), `${flag} ${low - 1} refused (docs/limits.md:${row.line})`);
    }
  }
});

t.test('a flag the table gives to one cluster ("local cluster:", "`--cluster mesos`:") is named by the others\' start-up warning (README "Options")', async (t) => {
  const others: Readonly<Record<string, readonly ClusterKind[]>> = { 'local cluster:': ['mesos', 'sim'], '`--cluster mesos`:': ['local', 'sim'] };
  let checked = 0;
  for (const row of optionRows()) {
    const text = tableCells(row.text)[2];
    const prefix = Object.keys(others).find((p) => text.startsWith(p));
    if (prefix === undefined) continue;
    for (const flag of row.flags) {
      for (const cluster of others[prefix]) {
        checked++;
        t.ok(unusedFlagWarnings(cluster, [flag]).length > 0, `${flag} (README line ${row.line}: "${prefix}") is named in --cluster ${cluster}'s warning`);
      }
    }
  }
  t.ok(checked >= 20, `the table's one-cluster rows were found (${checked} checks)`);
});
