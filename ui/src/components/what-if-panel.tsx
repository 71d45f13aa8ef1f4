import { durationText, shortInstance, waitingText, whatIfHeadline, type WhatIfAnswer } from '../model/what-if-text';

/**
 * The answer of a what-if (`?dryRun=true&simulate=…`, docs/what-if.md) for an edited app: whether
 * the change would finish and when, where each new instance would land, which instances would be
 * killed and why, and what would wait for which reasons. Nothing of it happened: it is the
 * simulator's run on a copy of the cluster.
 */
export function WhatIfPanel(props: { readonly answer: WhatIfAnswer }) {
  const a = props.answer;
  const waiting = waitingText(a);
  return (
    <section class="what-if" data-testid="what-if">
      <h4 data-testid="what-if-headline">{whatIfHeadline(a)}</h4>
      <p class="muted">Simulated on a copy of the cluster; nothing was changed.</p>
      {a.launched.length > 0 && (
        <table data-testid="what-if-launched">
          <caption>{a.launched.length} instance{a.launched.length === 1 ? '' : 's'} would start</caption>
          <thead><tr><th>instance</th><th>agent</th><th>after</th></tr></thead>
          <tbody>
            {a.launched.map((l) => <tr key={l.instanceId}><td>{shortInstance(l.instanceId)}</td><td>{l.hostname}</td><td>{durationText(l.afterMs)}</td></tr>)}
          </tbody>
        </table>
      )}
      {a.killed.length > 0 && (
        <table data-testid="what-if-killed">
          <caption>{a.killed.length} instance{a.killed.length === 1 ? '' : 's'} would be killed</caption>
          <thead><tr><th>instance</th><th>why</th><th>after</th></tr></thead>
          <tbody>
            {a.killed.map((k) => <tr key={k.instanceId}><td>{shortInstance(k.instanceId)}</td><td>{k.reason ?? ''}</td><td>{durationText(k.afterMs)}</td></tr>)}
          </tbody>
        </table>
      )}
      {waiting.length > 0 && (
        <ul data-testid="what-if-waiting">{waiting.map((w) => <li key={w}>{w}</li>)}</ul>
      )}
    </section>
  );
}
