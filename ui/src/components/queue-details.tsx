import type { QueueEntry, RejectStep } from '../api/wire';
import { backoffVerdict } from '../model/queue-text';
import { reasonText } from '../model/reasons';
import { fmtTime } from './misc';

/**
 * "Why is my app not starting?": a `/v2/queue` entry — instances still to launch, backoff delay,
 * offers processed and unused — with Marathon's reject funnel (each check with the offers that
 * reached it and those it declined) and, with `embed=lastUnusedOffers`, each agent's last
 * declined offer and its reason.
 */
export function QueueDetails(props: { readonly entry: QueueEntry }) {
  const { entry } = props;
  const s = entry.processedOffersSummary;
  const backoff = backoffVerdict(entry, entry.pod !== undefined ? 'pod' : 'app');
  return (
    <div class="queue-entry" data-testid="queue-entry">
      <Verdict steps={s.rejectSummaryLastOffers} />
      {backoff !== undefined && <p class="verdict" data-testid="queue-backoff">{backoff}</p>}
      <dl class="facts">
        <dt>Waiting to launch</dt><dd>{entry.count}</dd>
        <dt>Delay</dt><dd>{entry.delay.overdue ? 'none: waiting for offers' : `backed off, ${entry.delay.timeLeftSeconds}s left`}</dd>
        <dt>Since</dt><dd>{fmtTime(entry.since)}</dd>
        <dt>Role</dt><dd>{entry.role}</dd>
        <dt>Offers processed / unused</dt><dd>{s.processedOffersCount} / {s.unusedOffersCount}</dd>
        <dt>Last unused / used offer</dt><dd>{fmtTime(s.lastUnusedOfferAt)} / {fmtTime(s.lastUsedOfferAt)}</dd>
      </dl>
      <div class="funnels">
        <Funnel title="Last offer of each agent" steps={s.rejectSummaryLastOffers} />
        <Funnel title="All offers of this launch attempt" steps={s.rejectSummaryLaunchAttempt} />
      </div>
      {entry.lastUnusedOffers !== undefined && entry.lastUnusedOffers.length > 0 && (
        <table class="list compact">
          <thead><tr><th>Agent</th><th>Offer</th><th>Declined because</th><th>At</th></tr></thead>
          <tbody>
            {entry.lastUnusedOffers.map((o) => (
              <tr key={o.offer.id}>
                <td>{o.offer.hostname}{o.offer.agentId !== o.offer.hostname && <span class="muted"> {o.offer.agentId}</span>}</td>
                <td><code>{o.offer.id}</code></td>
                <td>{o.reason.map((r) => <span key={r} title={reasonText(r)}><strong>{r}</strong>: {reasonText(r)} </span>)}</td>
                <td>{fmtTime(o.timestamp)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** One sentence: what declined the last offer of each agent (the usual answer to "why not starting"). */
function Verdict(props: { readonly steps: readonly RejectStep[] }) {
  const declined = props.steps.filter((s) => s.declined > 0);
  if (declined.length === 0) return null;
  return (
    <p class="verdict" data-testid="queue-verdict">
      Last offers declined:{' '}
      {declined.map((s, i) => (
        <span key={s.reason}>{i > 0 ? '; ' : ''}<strong>{s.reason}</strong> on {s.declined} agent{s.declined === 1 ? '' : 's'} ({reasonText(s.reason)})</span>
      ))}
    </p>
  );
}

function Funnel(props: { readonly title: string; readonly steps: readonly RejectStep[] }) {
  return (
    <table class="list compact funnel">
      <caption>{props.title}</caption>
      <thead><tr><th>Check</th><th>Reached</th><th>Declined</th></tr></thead>
      <tbody>
        {props.steps.map((step) => (
          <tr key={step.reason} class={step.declined > 0 ? 'declined' : ''} title={reasonText(step.reason)}>
            <td>{step.reason}</td>
            <td>{step.processed}</td>
            <td>{step.declined}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
