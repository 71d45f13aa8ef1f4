import type { AppSpec } from '../../../scheduler/model/run-spec';
import { objectsOf, stringMapOf, stringOf } from './wire-read';

/** How an app's tasks are networked, as its definition's `networks` say (the converter's modes). */
export type AppNetworkMode = 'host' | 'container' | 'container/bridge';

/** One network of an app: its mode, and for `container` networks the name and labels. */
export interface AppNetwork {
  readonly mode: AppNetworkMode;
  readonly name?: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The app's networks from its normalized definition: `[{mode: 'host'}]` when none are given.
 * The converter has already validated them (host and bridge are exclusive; container networks
 * have a name), so this only reads.
 */
export function appNetworks(spec: AppSpec): AppNetwork[] {
  const list = objectsOf(spec.definition.networks).map((n): AppNetwork => {
    const mode = n.mode === 'container/bridge' || n.mode === 'host' ? n.mode : 'container';
    const name = stringOf(n.name);
    return { mode, ...(name === undefined ? {} : { name }), labels: stringMapOf(n.labels) };
  });
  return list.length > 0 ? list : [{ mode: 'host', labels: {} }];
}

/** The effective mode: host and bridge are exclusive, otherwise container. */
export function appNetworkMode(spec: AppSpec): AppNetworkMode {
  const modes = appNetworks(spec).map((n) => n.mode);
  return modes.includes('host') ? 'host' : modes.includes('container/bridge') ? 'container/bridge' : 'container';
}
