import type { Deployment, DeploymentAction } from '../api/wire';
import { routeHref } from '../model/route';
import { laterStepText, waitingLines } from '../model/waiting-text';
import { Link } from '../router';

/** A current action of a deployment and what it waits for (pacer's `waitingFor`), in words. */
export function ActionWaiting(props: { readonly action: DeploymentAction }) {
  const { action } = props;
  const id = action.app ?? action.pod ?? '?';
  const lines = waitingLines(action.waitingFor);
  return (
    <div class="action" data-testid="current-action">
      <div>
        <code>{action.action}</code>{' '}
        <Link href={routeHref(action.pod !== undefined ? { page: 'pod', id } : { page: 'app', id })}>{id}</Link>
      </div>
      {lines.length === 0 ? <div class="muted">waits for nothing more: the other actions of its step are still running</div> : (
        <ul class="waiting" data-testid="waiting-for">
          {lines.map((line) => (
            <li key={line.text}>
              {line.text}
              {line.reasons.length > 0 && (
                <ul>
                  {line.reasons.map((r) => (
                    <li key={r.reason}><strong>{r.reason}</strong> ×{r.count}: {r.text}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The current actions of `deployment` that concern `runSpecId` (all of them when undefined). */
export function actionsOf(deployment: Deployment, runSpecId?: string): DeploymentAction[] {
  return deployment.currentActions.filter((a) => runSpecId === undefined || a.app === runSpecId || a.pod === runSpecId);
}

/**
 * On an app's or pod's page, when the deployment's current step does not act on it: where its own
 * action stands, then what the current step waits for (the reason nothing happens to it yet).
 */
export function LaterStep(props: { readonly deployment: Deployment; readonly runSpecId: string }) {
  const text = laterStepText(props.deployment, props.runSpecId);
  if (text === undefined) return null;
  return (
    <div data-testid="later-step">
      <p>{text}</p>
      {props.deployment.currentActions.map((a) => <ActionWaiting key={`${a.action}${a.app ?? a.pod}`} action={a} />)}
    </div>
  );
}
