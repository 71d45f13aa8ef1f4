import type { ApiFailure } from './api/client';
import { usePoll } from './api/use-poll';
import type { Deployment, Info, QueueEntry } from './api/wire';
import { Toasts } from './components/toasts';
import { clusterLine, isSimCluster } from './model/cluster';
import { routeHref, type Route } from './model/route';
import { Link, useRoute } from './router';
import { AppView } from './views/app-view';
import { AppsView } from './views/apps-view';
import { CreateView } from './views/create-view';
import { DeploymentsView } from './views/deployments-view';
import { EventsView } from './views/events-view';
import { GroupsView } from './views/groups-view';
import { PodView } from './views/pod-view';
import { QueueView } from './views/queue-view';
import { SimulationView } from './views/simulation-view';

/** The shell: the cluster pacer runs on, the navigation (with live counts), the page, the toasts. */
export function App() {
  const route = useRoute();
  const info = usePoll<Info>('/v2/info', 30_000);
  const deployments = usePoll<Deployment[]>('/v2/deployments');
  const queue = usePoll<{ queue: QueueEntry[] }>('/v2/queue');
  // Only `--cluster sim` serves the simulation endpoint, and /v2/info says which cluster this is.
  const isSim = info.data !== undefined && isSimCluster(info.data);
  const tabs: { route: Route; label: string; count?: number }[] = [
    { route: { page: 'apps' }, label: 'Applications' },
    { route: { page: 'groups' }, label: 'Groups' },
    { route: { page: 'deployments' }, label: 'Deployments', count: deployments.data?.length },
    { route: { page: 'queue' }, label: 'Queue', count: queue.data?.queue.length },
    { route: { page: 'events' }, label: 'Events' },
    ...(isSim ? [{ route: { page: 'simulation' } as Route, label: 'Simulation' }] : []),
  ];
  const active = activeTab(route);
  return (
    <>
      <header class="top">
        <Link href={routeHref({ page: 'apps' })} class="brand">pacer</Link>
        <nav>
          {tabs.map((t) => (
            <Link key={t.label} href={routeHref(t.route)} class={t.route.page === active ? 'tab active' : 'tab'}>
              {t.label}{t.count !== undefined && t.count > 0 ? <span class="count">{t.count}</span> : null}
            </Link>
          ))}
        </nav>
        <div class="cluster muted" title={info.data?.marathon_config.master}>
          {clusterLine(info.data, info.error?.status, [deployments.error?.status, queue.error?.status])}
        </div>
      </header>
      <main>
        <Page route={route} info={info.data} infoError={info.error} />
      </main>
      <Toasts />
    </>
  );
}

/** The page of `route`; `info` is `/v2/info`'s answer (undefined until the first one). */
function Page(props: { readonly route: Route; readonly info: Info | undefined; readonly infoError: ApiFailure | undefined }) {
  const { route } = props;
  switch (route.page) {
    case 'apps':
      return <AppsView />;
    case 'app':
      return <AppView key={route.id} id={route.id} />;
    case 'pod':
      return <PodView key={route.id} id={route.id} />;
    case 'groups':
      return <GroupsView />;
    case 'deployments':
      return <DeploymentsView />;
    case 'queue':
      return <QueueView />;
    case 'events':
      return <EventsView />;
    case 'simulation':
      return <SimulationView info={props.info} infoError={props.infoError} />;
    case 'create':
      return <CreateView />;
    case 'unknown':
      return (
        <section>
          <h1>Not found</h1>
          <p>The UI has no page at <code>{route.path}</code>. <Link href={routeHref({ page: 'apps' })}>Applications</Link></p>
        </section>
      );
  }
}

/** The tab a page belongs to (an app's page is under Applications). */
function activeTab(route: Route): Route['page'] {
  return route.page === 'app' || route.page === 'pod' || route.page === 'create' ? 'apps' : route.page;
}
