import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './model/route';

const NAVIGATE_EVENT = 'pacer:navigate';

/** Goes to `href` (a `/ui/...` path) without reloading the page. */
export function navigate(href: string): void {
  if (href === location.pathname + location.search) return;
  history.pushState(null, '', href);
  dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** The current page, following the back and forward buttons and {@link navigate}. */
export function useRoute(): Route {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = (): void => setPath(location.pathname);
    addEventListener('popstate', update);
    addEventListener(NAVIGATE_EVENT, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  return parseRoute(path);
}

/** An in-app link: a real `<a href>` (open in a new tab works), navigated client-side on a plain click. */
export function Link(props: { readonly href: string; readonly children: ComponentChildren; readonly class?: string }) {
  return (
    <a
      href={props.href}
      class={props.class}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
