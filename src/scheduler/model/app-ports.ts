import type { AppSpec } from './app';
import { networkModeOf } from './networks';

/**
 * What one of an app's ports is to its tasks: its place among each task's host ports (when it
 * has a host port) and the port the process listens on in the container (container networking).
 * `portIndex` of health checks and `portName` of readiness checks address these, in the order of
 * the app's `portDefinitions` (host networking) or `container.portMappings` (otherwise).
 */
export interface AppPortSlot {
  readonly hostPortIndex?: number;
  readonly containerPort?: number;
  readonly name?: string;
}

/** The parts of an app its ports come from. */
export type AppPorts = Pick<AppSpec, 'networks' | 'portDefinitions' | 'container'>;

/** The app's ports in Marathon's order (see {@link AppPortSlot}). */
export function appPortSlots(app: AppPorts): AppPortSlot[] {
  if (networkModeOf(app.networks) === 'host') {
    return app.portDefinitions.map((d, i) => ({ hostPortIndex: i, ...(d.name === undefined ? {} : { name: d.name }) }));
  }
  let hostIndex = 0;
  return (app.container?.portMappings ?? []).map((m) => ({
    ...(m.hostPort === undefined ? {} : { hostPortIndex: hostIndex++ }),
    containerPort: m.containerPort,
    ...(m.name === undefined ? {} : { name: m.name }),
  }));
}
