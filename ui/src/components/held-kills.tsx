import type { HeldUnhealthyKills } from '../api/wire';
import { floorSourceText, heldKillsHeadline } from '../model/held-kills-text';
import { routeHref } from '../model/route';
import { Link } from '../router';
import { fmtTime } from './misc';

/**
 * Kill-storm protection on the queue page: per app, the unhealthy kills its floor holds back
 * (`heldUnhealthyKills` of `/v2/queue`), why, and the held instances in the order their kills
 * will go once replacements turn healthy (or are dropped when an instance passes its checks again).
 */
export function HeldKills(props: { readonly held: readonly HeldUnhealthyKills[] }) {
  return (
    <div data-testid="held-kills">
      <h2>Unhealthy kills held by the kill-storm floor</h2>
      {props.held.map((h) => (
        <div key={h.appId} class="card" data-held-id={h.appId}>
          <div class="card-head">
            <strong><Link href={routeHref({ page: 'app', id: h.appId })}>{h.appId}</Link></strong>
          </div>
          <p data-testid="held-kills-headline"><strong>{heldKillsHeadline(h)}</strong></p>
          <p class="muted" data-testid="held-kills-message">{h.message}</p>
          <dl class="facts"><dt>Floor from</dt><dd>{floorSourceText(h)}</dd></dl>
          <table class="list compact">
            <thead><tr><th>#</th><th>Instance</th><th>Host</th><th>Failed check</th><th>Due since</th></tr></thead>
            <tbody>
              {h.kills.map((k, i) => (
                <tr key={k.instanceId}>
                  <td>{i + 1}</td>
                  <td><code>{k.instanceId}</code></td>
                  <td>{k.host}</td>
                  <td>{k.reason}</td>
                  <td>{fmtTime(k.since)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
