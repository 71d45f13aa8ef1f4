import { platform } from 'node:os';
import t from 'tap';
import { formatMachineProbe, type MachineProbe, PROBE_BYTES, probeMachine } from '../../bench/lib/machine-probe';

t.test('the probe measures a first touch of fresh pages and a spawn, in a process of its own', async (t) => {
  const p = probeMachine();
  t.equal(p.failed, undefined, 'the probe process ran');
  t.ok(p.kernel.length > 0, 'the kernel release');
  if (platform() === 'linux') {
    t.type(p.hypervisor, 'boolean', '/proc/cpuinfo read');
    // Fresh memory: about one fault per 4 KiB page written (a kernel that maps larger pages would take fewer).
    t.ok((p.pageFaults ?? 0) >= PROBE_BYTES / 4096 / 2, `${p.pageFaults} page faults for ${PROBE_BYTES} fresh bytes`);
  }
  t.ok(Number.isFinite(p.pageTouchUs) && (p.pageTouchUs ?? 0) > 0, `${p.pageTouchUs} µs per page`);
  t.ok(Number.isFinite(p.spawnMs) && (p.spawnMs ?? 0) > 0, `${p.spawnMs} ms per spawn`);
});

t.test('the probe line says what was measured, or why nothing was', async (t) => {
  const base: MachineProbe = { kernel: '6.1.0', hypervisor: true, pageTouchUs: 13.7, pageFaults: 4096, spawnMs: 9.8 };
  const cases: readonly [string, MachineProbe, string][] = [
    ['under a hypervisor', base, 'kernel 6.1.0 under a hypervisor; first touch of a page 13.7 µs, a process spawn 9.8 ms'],
    ['no hypervisor', { ...base, hypervisor: false }, 'kernel 6.1.0, no hypervisor reported; first touch of a page 13.7 µs, a process spawn 9.8 ms'],
    ['unknown', { ...base, hypervisor: undefined }, 'kernel 6.1.0; first touch of a page 13.7 µs, a process spawn 9.8 ms'],
    ['failed', { ...base, pageTouchUs: undefined, pageFaults: undefined, spawnMs: undefined, failed: 'exit 1: boom' }, 'kernel 6.1.0 under a hypervisor; the machine probe failed (exit 1: boom)'],
  ];
  for (const [name, probe, line] of cases) t.equal(formatMachineProbe(probe), line, name);
});
