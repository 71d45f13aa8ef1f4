import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** A modal dialog over the page; Escape or the backdrop closes it. */
export function Modal(props: { readonly title: string; readonly onClose: () => void; readonly children: ComponentChildren }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') props.onClose();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [props.onClose]);
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal" role="dialog" aria-modal="true" aria-label={props.title}>
        <h2>{props.title}</h2>
        {props.children}
      </div>
    </div>
  );
}
