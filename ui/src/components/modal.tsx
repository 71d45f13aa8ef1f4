import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** What Tab can reach inside the dialog. */
const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), textarea:not(:disabled), select:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog over the page; Escape or the backdrop closes it. It is usable from the keyboard:
 * on opening, focus moves into it (its `autofocus` field, else its first field, else its first
 * button — Cancel, in an action dialog), Tab and Shift+Tab cycle within it, and on closing focus
 * returns to what had it before (the button that opened it). An `autofocus` attribute alone does
 * nothing here: a browser honours it only until something on the page has had focus.
 */
export function Modal(props: { readonly title: string; readonly onClose: () => void; readonly children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const el = box.current;
    if (el !== null) {
      const first = el.querySelector<HTMLElement>('[autofocus]') ?? el.querySelector<HTMLElement>('input, textarea, select') ?? el.querySelector<HTMLElement>(FOCUSABLE);
      (first ?? el).focus();
    }
    return () => {
      if (before?.isConnected === true) before.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') props.onClose();
      else if (e.key === 'Tab' && box.current !== null) keepFocusIn(box.current, e);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [props.onClose]);
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal" role="dialog" aria-modal="true" aria-label={props.title} tabIndex={-1} ref={box}>
        <h2>{props.title}</h2>
        {props.children}
      </div>
    </div>
  );
}

/** Tab from the last focusable element goes to the first (Shift+Tab the other way), and focus outside comes back in. */
function keepFocusIn(el: HTMLElement, e: KeyboardEvent): void {
  const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (items.length === 0) {
    e.preventDefault();
    el.focus();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (!(active instanceof Node) || !el.contains(active) || active === el) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  } else if (e.shiftKey && active === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}
