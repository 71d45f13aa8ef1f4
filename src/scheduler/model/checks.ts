/**
 * A command as Mesos runs it (Marathon's `mesosCommand.raml`): through the shell, or an argv
 * without one.
 */
export type MesosCommand = { readonly shell: string } | { readonly argv: readonly string[] };

/**
 * Marathon's `check` of an app (`check.raml` `AppCheck`): a Mesos check whose result is reported,
 * never acted upon (unlike health checks). Kept as given; pacer does not run it.
 */
export interface AppCheck {
  readonly http?: { readonly portIndex?: number; readonly port?: number; readonly path?: string; readonly scheme?: string };
  readonly tcp?: { readonly portIndex?: number; readonly port?: number };
  readonly exec?: { readonly command: MesosCommand };
  readonly intervalSeconds?: number;
  readonly timeoutSeconds?: number;
  readonly delaySeconds?: number;
}

/** Marathon's `check` of a pod container (`check.raml` `Check`): like {@link AppCheck}, by endpoint name. */
export interface PodCheck {
  readonly http?: { readonly endpoint: string; readonly path?: string; readonly scheme?: string };
  readonly tcp?: { readonly endpoint: string };
  readonly exec?: { readonly command: MesosCommand };
  readonly intervalSeconds?: number;
  readonly timeoutSeconds?: number;
  readonly delaySeconds?: number;
}
