/** The UI's pages; every one has its own URL under `/ui/` so it can be bookmarked and reloaded. */
export type Route =
  | { readonly page: 'apps' }
  | { readonly page: 'app'; readonly id: string }
  | { readonly page: 'pod'; readonly id: string }
  | { readonly page: 'groups' }
  | { readonly page: 'deployments' }
  | { readonly page: 'queue' }
  | { readonly page: 'events' }
  | { readonly page: 'simulation' }
  | { readonly page: 'create' }
  | { readonly page: 'unknown'; readonly path: string };

/** The prefix every page's URL starts with (where pacer serves the UI). */
export const UI_BASE = '/ui/';

/** The page of a URL path (`/ui/apps/prod/web` → the app `/prod/web`). */
export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(UI_BASE) ? pathname.slice(UI_BASE.length) : pathname === '/ui' ? '' : undefined;
  if (rest === undefined) return { page: 'unknown', path: pathname };
  const path = rest.replace(/\/+$/, '');
  if (path === '' || path === 'apps') return { page: 'apps' };
  const [head, ...tail] = path.split('/');
  const id = `/${tail.map(decodeURIComponent).join('/')}`;
  if (head === 'apps' && tail.length > 0) return { page: 'app', id };
  if (head === 'pods' && tail.length > 0) return { page: 'pod', id };
  if (tail.length === 0 && isSimplePage(head)) return { page: head };
  return { page: 'unknown', path: pathname };
}

const SIMPLE_PAGES = ['groups', 'deployments', 'queue', 'events', 'simulation', 'create'] as const;
type SimplePage = (typeof SIMPLE_PAGES)[number];

function isSimplePage(name: string): name is SimplePage {
  return (SIMPLE_PAGES as readonly string[]).includes(name);
}

/** The URL of a page ({@link parseRoute}'s inverse). */
export function routeHref(route: Route): string {
  switch (route.page) {
    case 'apps':
      return UI_BASE;
    case 'app':
      return `${UI_BASE}apps${encodeId(route.id)}`;
    case 'pod':
      return `${UI_BASE}pods${encodeId(route.id)}`;
    case 'unknown':
      return route.path;
    default:
      return `${UI_BASE}${route.page}`;
  }
}

function encodeId(id: string): string {
  return id.split('/').map(encodeURIComponent).join('/');
}
