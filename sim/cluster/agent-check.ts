import type { HealthCheckProtocol } from '../../src/scheduler/model/health-check';
import type { HealthResponse } from './health-responder';

/**
 * The verdict of one agent-run check (Mesos health checker, spec §7.5): an answer slower than the
 * check's timeout fails; HTTP(S) and command checks pass on a status in [200, 399] from a service
 * that is up; TCP checks pass when the connection succeeds.
 */
export function agentCheckPasses(protocol: HealthCheckProtocol, response: HealthResponse, timeoutMs: number): boolean {
  if (response.latencyMs !== undefined && response.latencyMs > timeoutMs) return false;
  if (!response.up) return false;
  if (protocol === 'TCP' || protocol === 'MESOS_TCP') return true;
  return response.status >= 200 && response.status <= 399;
}

/**
 * Check times form a grid: `firstMs`, `firstMs + intervalMs`, … The first grid time at or after
 * `atMs` (never before `firstMs`).
 */
export function nextGridMs(firstMs: number, intervalMs: number, atMs: number): number {
  if (atMs <= firstMs) return firstMs;
  return firstMs + Math.ceil((atMs - firstMs) / intervalMs) * intervalMs;
}
