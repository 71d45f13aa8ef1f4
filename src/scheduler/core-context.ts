import type { CommandContext } from './commands/command-context';
import type { LaunchContext } from './launch-queue/launch-context';

/**
 * Everything the facade (scheduler.ts) holds: the union of the layers' contexts. Only the facade
 * imports this; each module of the core takes the narrowest context of its layer
 * (InstanceContext ⊂ LaunchContext, DeploymentContext ⊂ CommandContext), so that no layer can
 * reach a layer above it.
 */
export interface CoreContext extends CommandContext, LaunchContext {}
