import t from 'tap';
import { AgentAddresses } from '../../../../sim/cluster/agent-addresses';
import { agent, Harness, launchOp, RUNNING_AFTER_MS, startAndAccept, taskLaunch } from './harness';

t.test('each simulated host gets a deterministic, distinct IPv4 address', async (t) => {
  const cases: { name: string; hostnames: string[]; expected: string[] }[] = [
    { name: 'in order of first registration', hostnames: ['a1.example', 'a2.example', 'a3.example'], expected: ['10.0.0.1', '10.0.0.2', '10.0.0.3'] },
    { name: 'a host registered again keeps its address', hostnames: ['a1.example', 'a2.example', 'a1.example'], expected: ['10.0.0.1', '10.0.0.2', '10.0.0.1'] },
    { name: 'a hostname that is an IPv4 address is its own', hostnames: ['192.168.7.9', 'a1.example'], expected: ['192.168.7.9', '10.0.0.1'] },
    { name: 'not an IPv4 address: numbered', hostnames: ['256.1.1.1', '1.2.3'], expected: ['10.0.0.1', '10.0.0.2'] },
  ];
  for (const c of cases) {
    const addresses = new AgentAddresses();
    const got = c.hostnames.map((h) => addresses.of(h));
    t.same(got.map((ips) => ips.map((ip) => ip.protocol)), c.hostnames.map(() => ['IPv4']), `${c.name}: one IPv4 address each`);
    t.same(got.map((ips) => ips[0].ipAddress), c.expected, c.name);
  }
  const many = new AgentAddresses();
  const all = Array.from({ length: 600 }, (_, i) => many.of(`host-${i}`)[0].ipAddress);
  t.equal(new Set(all).size, 600, '600 hosts, 600 addresses');
  t.same([all[253], all[254], all[507], all[508]], ['10.0.0.254', '10.0.1.1', '10.0.1.254', '10.0.2.1'], 'past .254 the next /24: no .0, no .255');
});

t.test('the executor\'s updates carry the agent\'s address (ipAddresses), as a Mesos agent\'s and the local cluster\'s do', async (t) => {
  const h = new Harness({ agents: [agent('a1'), agent('a2')] });
  startAndAccept(h, [launchOp(taskLaunch('t1', 'a1'))], 'a1');
  startAndAccept(h, [launchOp(taskLaunch('t2', 'a2'))], 'a2');
  h.runFor(RUNNING_AFTER_MS + 10);
  for (const [taskId, ip] of [['t1', '10.0.0.1'], ['t2', '10.0.0.2']]) {
    const updates = h.statuses(taskId);
    t.same(updates.map((s) => s.state), ['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING'], `${taskId}: its updates`);
    for (const s of updates) t.strictSame(s.ipAddresses, [{ ipAddress: ip, protocol: 'IPv4' }], `${taskId} ${s.state}: the agent's address`);
  }
});
