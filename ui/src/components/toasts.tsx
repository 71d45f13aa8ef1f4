import { useEffect, useState } from 'preact/hooks';

interface Toast {
  readonly id: number;
  readonly text: string;
}

const listeners = new Set<(t: Toast) => void>();
let nextId = 1;
const TOAST_MS = 6000;

/** Shows `text` briefly in the corner (what an action did: "deployment … started"). */
export function notify(text: string): void {
  const toast = { id: nextId++, text };
  for (const l of listeners) l(toast);
}

/** Where {@link notify}'s messages appear. */
export function Toasts() {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  useEffect(() => {
    const add = (t: Toast): void => {
      setToasts((list) => [...list, t]);
      setTimeout(() => setToasts((list) => list.filter((x) => x.id !== t.id)), TOAST_MS);
    };
    listeners.add(add);
    return () => void listeners.delete(add);
  }, []);
  return (
    <div class="toasts" aria-live="polite">
      {toasts.map((t) => <div key={t.id} class="toast">{t.text}</div>)}
    </div>
  );
}
